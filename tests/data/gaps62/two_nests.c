void k(int n, int m, double A[40][40], double B[40][40]) {
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = A[i-1][j] + B[i][j];
#pragma endscop
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 1; j < m; j++)
      B[i][j] = B[i][j-1] * 0.5 + A[i][j];
#pragma endscop
}
