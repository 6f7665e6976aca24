void rw(int n, int m, double A[n][m], double B[n][m], double C[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[i][j] = A[i][j] + (j + 1 < m ? A[i][j + 1] : 0.0);
      A[i][j] = B[i][j] * 3.0;
      B[i][j] = A[i][j] + (j > 0 ? A[i][j - 1] : 1.0);
    }
#pragma endscop
}
