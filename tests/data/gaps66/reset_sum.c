void rows(int n, int m, double *a, double *out, double *last)
{
  double sum;
  int i, j;
  for (i = 0; i < n; i++) {
    sum = 0.0;
    for (j = 0; j < m; j++)
      sum += a[i * m + j];
    out[i] = sum;
  }
  *last = sum;
}
