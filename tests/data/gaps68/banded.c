#define M 160
double A[M][M], B[M][M], C[M][M], D[M][M], x[M], y[M], z[M];
void kern(int n, int m)
{
  int i, j, k, t;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = (i - m > 0 ? i - m : 0); j < (i + m + 1 < n ? i + m + 1 : n); j++)
      y[i] = y[i] + A[i][j] * x[j];
#pragma endscop
}
