void kern(unsigned short n, double *x, double *y)
{
  unsigned i;
#pragma scop
  for (i = n - 1; i != -1u; --i)
    y[i] = y[i + 1] * 0.5 + x[i];
#pragma endscop
}
