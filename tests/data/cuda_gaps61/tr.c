void tr(int n, int m, double B[m][n], const double A[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[j][i] = A[i][j];
#pragma endscop
}
