void gr4b(int n, int m, double C[n][m], double A[n][m], double B[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] = (i == 0 || B[i][j] < 0.2) ? 1.0 : A[i - 1][j];
#pragma endscop
}
