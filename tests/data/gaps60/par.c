void f(int n, int m, double A[n][m], double B[n][m]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = A[i][j] * 2.0 + B[i][j];
#pragma endscop
}
