void f(int n, double a[n], double b[n][n])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      a[i] = a[i] + b[i][j] * a[j];
#pragma endscop
}
