void gesummv(int n, double a, double b, double *A, double *B, double *x, double *y, double *tmp)
{
  int i, j;
#pragma scop
  for (i = 0; i <= n - 1; i++) {
    tmp[i] = 0;
    y[i] = 0;
    for (j = 0; j <= n - 1; j++) {
      tmp[i] = A[i * n + j] * x[j] + tmp[i];
      y[i] = B[i * n + j] * x[j] + y[i];
    }
    y[i] = a * tmp[i] + b * y[i];
  }
#pragma endscop
}
