void wave(int n, int T, int m, double B[n][T + 1][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int k = 0; k < T; k++)
      for (int j = 1; j < m - 1; j++)
        B[i][k + 1][j] = (B[i][k][j - 1] + B[i][k][j] + B[i][k][j + 1]) * 0.25;
#pragma endscop
}
