void t3s(int nb, int n, int m, int q, int p, float C[nb][n][m][q], const float A[nb][n][p][q], const float B[p][m])
{
  float s;
#pragma scop
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        for (int l = 0; l < q; l++) {
          s = 0.0f;
          for (int k = 0; k < p; k++)
            s += A[b][i][k][l] * B[k][j];
          C[b][i][j][l] = s;
        }
#pragma endscop
}
