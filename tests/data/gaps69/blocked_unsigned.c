void blk(const char *x, char *s, unsigned n)
{
  unsigned i, j;
#pragma scop
  for (i = 0; i < n; i += 64)
    for (j = i; j < n && j < i + 64; j++)
      s[j] = x[j];
#pragma endscop
}
