void f(int n, double A[n][n]) {
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n; j++)
      A[i][j] = A[i - 1][j - 1] * 0.5 + A[i][j];
#pragma endscop
}
