void lst(int n, int m, float *B, const float *A)
{
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i * m + j] = A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1] - 4.0f * A[i * m + j];
#pragma endscop
}
