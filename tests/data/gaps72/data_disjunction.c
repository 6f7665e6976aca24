void kern(int n, double *x, double *y, double *b)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    y[i] = (i >= 1 && b[i] > 0.5) || i >= 2 ? x[i - 1] : 0.0;
  }
#pragma endscop
}
