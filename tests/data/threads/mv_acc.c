void mv_acc(int n, int m, double y[n], const double A[n][m], const double x[m])
{
  double t;
#pragma scop
  for (int i = 0; i < n; i++) {
    t = 0.0;
    for (int j = 0; j < m; j++)
      t += A[i][j] * x[j];
    y[i] = t;
  }
#pragma endscop
}
