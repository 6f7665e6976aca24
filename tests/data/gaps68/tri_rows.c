#define M 160
double A[M][M], B[M][M], C[M][M], D[M][M], x[M], y[M], z[M];
void kern(int n, int m)
{
  int i, j, k, t;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = i; j < n; j++)
      A[i][j] = A[i - 1][j] + x[j];
#pragma endscop
}
