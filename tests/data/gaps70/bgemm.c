/* batched SGEMM, row-major, long counters, leading dims */
void bgemm(long nb, long m, long n, long kk, float alpha,
           const float *restrict A, const float *restrict B, float *restrict C)
{
#pragma scop
  for (long b = 0; b < nb; b++)
    for (long i = 0; i < m; i++)
      for (long j = 0; j < n; j++)
        for (long k = 0; k < kk; k++)
          C[(b * m + i) * n + j] += alpha * A[(b * m + i) * kk + k] * B[(b * kk + k) * n + j];
#pragma endscop
}
