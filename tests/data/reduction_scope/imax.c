int imax(int n, int m, int A[n][m])
{
  int best = 0;
#pragma scop
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++)
      best = best > A[j][i] - i ? best : A[j][i] - i;
#pragma endscop
  return best;
}
