void kern(int n, double A[n+2][n+2]) {
  int i, j;
#pragma omp parallel for private(j)
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      A[i][j] = 0.5 * (A[i][j] + A[i][j-1]);
#pragma endscop
}
