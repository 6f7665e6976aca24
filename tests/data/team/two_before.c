void axpy2(int n, double a, const double *x, double *y, double *z) {
  int i;
#pragma omp parallel for
#pragma scop
  for (i = 0; i < n; i++) y[i] += a * x[i];
  for (i = 0; i < n; i++) z[i] = y[i];
#pragma endscop
}
