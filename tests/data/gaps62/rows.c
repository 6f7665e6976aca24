void rows(int n, float A[n][n], const float B[n][n])
{
#pragma scop
  for (int i = n - 2; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = B[i][j] * 2.0f;
#pragma endscop
}
