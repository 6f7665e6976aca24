#define M 12
void comb(int n, double *A, double *B, double *x)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < M; j++)
      A[i*M + j] = A[i*M + j] * 0.5 + B[i*M + j] + x[i % 5];
#pragma endscop
}
