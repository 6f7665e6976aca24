/* B is written only where A is positive: a copy of B must load it. */
void clip(int n, int m, double A[n][m], double B[n][m]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (A[i][j] > 0.0)
        B[i][j] = A[i][j];
#pragma endscop
}
