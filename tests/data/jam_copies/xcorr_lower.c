void f(int n, int m, double *x, double *y)
{
  for (int j = 0; j < m; j++) {
    double s = 0;
    for (int i = j; i < n; i++)
      s += x[i] * x[i - j];
    y[j] = s;
  }
}
