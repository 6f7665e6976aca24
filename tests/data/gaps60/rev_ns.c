void f(int n, double A[n+1][n+1]) {
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = A[i-1][j+1] * 0.5 + 1.0;
#pragma endscop
}
