/* float transpose: A_sh read down its columns */
void transpose_f(int n, int m, float A[n][m], float B[m][n]) {
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = 2.0 * A[j][i];
#pragma endscop
}
