void kern(unsigned n, int m, double A[300][300], double B[300][300])
{
  int i, j;
#pragma scop
  for (i = 0; i < n - 3; i++)
    for (j = 0; j < m; j++)
      A[i + 100][j + 100] = B[i + 100][j + 100] + i;
#pragma endscop
}
