void trmv(int N, double L[N][N], double x[N], double y[N])
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      y[i] += L[i][j] * x[j];
#pragma endscop
}
