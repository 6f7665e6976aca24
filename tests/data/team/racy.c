void sweep(int n, int m, double a[n][m])
{
  int i, j;
#pragma omp parallel
  {
#pragma scop
#pragma omp for private(j)
    for (i = 1; i < n; i++)
      for (j = 0; j < m; j++)
        a[i][j] = a[i - 1][j] + 1.0;
#pragma endscop
  }
}
