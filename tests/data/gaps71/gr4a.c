void gr4a(int n, int m, double C[n][m], double A[n][m], double B[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] = (j + 1 < m && B[i][j] > 0.5) ? A[i][j + 1] : 0.0;
#pragma endscop
}
