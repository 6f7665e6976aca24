void k(int n, double a0[n][n], double a1[n][n], double a2[n][n], double a3[n][n], double a4[n][n], double a5[n][n], double a6[n][n], double a7[n][n], double a8[n][n])
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a1[i][j] = a0[i][j] + 0.5 * a1[i][j - 1] + 0.25 * a0[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a2[i][j] = a1[i][j] + 0.5 * a2[i][j - 1] + 0.25 * a1[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a3[i][j] = a2[i][j] + 0.5 * a3[i][j - 1] + 0.25 * a2[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a4[i][j] = a3[i][j] + 0.5 * a4[i][j - 1] + 0.25 * a3[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a5[i][j] = a4[i][j] + 0.5 * a5[i][j - 1] + 0.25 * a4[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a6[i][j] = a5[i][j] + 0.5 * a6[i][j - 1] + 0.25 * a5[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a7[i][j] = a6[i][j] + 0.5 * a7[i][j - 1] + 0.25 * a6[i][j + 1];
  for (i = 1; i < n; i++)
    for (j = 1; j < n - 1; j++)
      a8[i][j] = a7[i][j] + 0.5 * a8[i][j - 1] + 0.25 * a7[i][j + 1];
#pragma endscop
}
