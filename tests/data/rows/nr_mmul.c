void mmul(float **a, float **b, float **c, int n)
{
  int i, j, k;
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      for (k = 1; k <= n; k++)
        c[i][j] += a[i][k] * b[k][j];
}
