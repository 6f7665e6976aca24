void kern(int n, int m, int lo, double A[64][64], double B[64][64], double x[64], double y[64])
{
  int i, j;
#pragma scop
  for (i = lo; i < n; i++)
    for (j = lo + 1; j < m; j++)
      A[i][j] = A[i][j - 1] * 0.5 + B[i][j] + x[i];
#pragma endscop
}
