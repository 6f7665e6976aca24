void f(int n, int m, double a[n][m], double b[n][m])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      b[i][j] = a[i][j];
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++)
      a[i][j] = b[i - 1][j] + b[i + 1][j] + b[i][j-1] + b[i][j+1];
#pragma endscop
}
