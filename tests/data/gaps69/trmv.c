void trmv(int n, double y[n], const double L[n][n], const double x[n])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i] = 0.0;
    for (int j = 0; j <= i; j++)
      y[i] += L[i][j] * x[j];
  }
#pragma endscop
}
