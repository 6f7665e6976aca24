void kern(int n, int m, int p, double A[64][64], double B[64][64], double C[64][64])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      for (k = 0; k < p; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
