/* B is only written: a copy of B needs no load. */
void transpose(int n, int m, double A[n][m], double B[m][n]) {
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = 2.0 * A[j][i];
#pragma endscop
}
