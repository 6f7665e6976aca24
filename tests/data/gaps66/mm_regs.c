void mm(int n, int m, int p, double C[n][m], const double A[n][p], const double B[p][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
