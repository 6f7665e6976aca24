void bgemm(long m, long n, long kk, const float *restrict A, const float *restrict B, float *restrict C)
{
#pragma scop
  for (long i = 0; i < m; i++)
    for (long j = 0; j < n; j++)
      for (long k = 0; k < kk; k++)
        C[i * n + j] += A[i * kk + k] * B[k * n + j];
#pragma endscop
}
