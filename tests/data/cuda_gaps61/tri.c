void tri(int n, double B[n][n], const double A[n][n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      B[i][j] = A[i][j] + A[j][i];
#pragma endscop
}
