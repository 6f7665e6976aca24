void kern(int n, double B[n+2][n+2], double A[n+2][n+2]) {
  int i, j;
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
#pragma endscop
}
