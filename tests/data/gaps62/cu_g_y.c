void kf(long n, float A[48][48], const float B[48][48])
{
#pragma scop
  for (int i = 0; i < (int)n; i++)
    for (int j = 0; j < 8; j++)
      A[i][j] = B[i][j] * 0.5f;
#pragma endscop
}
