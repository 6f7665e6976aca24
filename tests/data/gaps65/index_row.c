void f(int n, int m, int idx[4][15], const double *x, double *y) {
  int k, i;
  for (k = 0; k < n; k++)
    for (i = 0; i < m; i++)
      y[i] += x[idx[1][k]] * i + x[i + idx[2][k]];
}
