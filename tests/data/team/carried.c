void sweep(int n, int m, double a[n][m])
{
  int i, j;
#pragma omp parallel
  {
#pragma scop
#pragma omp for private(j) schedule(static)
    for (i = 0; i < n; i++)
      for (j = 1; j < m; j++)
        a[i][j] = a[i][j - 1] + 1.0;
#pragma endscop
  }
}
