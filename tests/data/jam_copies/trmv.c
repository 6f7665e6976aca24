void f(int n, int m, double A[n][n], double *x, double *y)
{
  for (int i = 0; i < m; i++) {
    double s = 0.0;
    for (int j = 0; j <= i; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}
