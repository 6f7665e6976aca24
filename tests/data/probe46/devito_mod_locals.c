void two(int n, int m, float a[2][n][m], float b[n][m], int time_m, int time_M, int nthreads)
{
  for (int time = time_m; time <= time_M; time += 1)
  {
    int t0 = (time)%(2);
    int t1 = (time + 1)%(2);
    #pragma omp parallel num_threads(nthreads)
    {
#pragma scop
      #pragma omp for
      for (int x = 0; x < n; x += 1)
        for (int y = 0; y < m; y += 1)
          b[x][y] = 2.0f*a[t0][x][y];
      #pragma omp for
      for (int x = 0; x < n; x += 1)
        for (int y = 0; y < m; y += 1)
          a[t1][x][y] = b[x][y];
#pragma endscop
    }
  }
}
