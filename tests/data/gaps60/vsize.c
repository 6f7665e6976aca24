void scale(int n, double *x, double *y)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
#pragma endscop
}
