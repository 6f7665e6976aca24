void up2(const char *a, char *b, unsigned lo, unsigned hi)
{
  unsigned i;
#pragma scop
  for (i = lo; i < hi; i++)
    b[4 * i] = a[i];
#pragma endscop
}
