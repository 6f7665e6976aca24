void kern(unsigned n, double *x, double *y)
{
  unsigned i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = i - 1 < n ? x[i - 1] : 0.0;
#pragma endscop
}
