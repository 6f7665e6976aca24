void f(int n, double A[n][n], double B[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = B[i][j] * 2.0 + A[i][j];
#pragma endscop
}
