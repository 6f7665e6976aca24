void kernel(int n, double *A, double *x, double *tmp, double *y) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = A[i*n + j] * x[j] + tmp[i];
    y[i] = 2.0 * tmp[i];
  }
#pragma endscop
}
