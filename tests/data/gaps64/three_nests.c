void f(int n, double A[n+4][n+4], double B[n+4][n+4], double C[n+4][n+4])
{
  int i, j;
#pragma scop
  for (i = 2; i <= n + 1; i++)
    for (j = 2; j <= n + 1; j++)
      B[i][j] = C[i][j];
  for (i = 2; i <= n + 1; i++)
    for (j = 2; j <= n + 1; j++)
      A[i][j] = C[i][j];
  for (i = 2; i <= n + 1; i++)
    for (j = 2; j <= n + 1; j++)
      A[i][j-1] = A[i-1][j+1];
#pragma endscop
}
