void f(int n, double A[n+4], double B[n+4][n+4])
{
  int i, j;
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      B[i][j] = A[j];
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      A[i] = B[i][j] + 1;
#pragma endscop
}
