void f(int n, double A[n][n], double C[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      A[i][j] = 2.0 * A[i][j];
    for (int j = 0; j < n; j++)
      for (int k = 0; k < 2; k++)
        C[i][j] += A[i][j] * k;
  }
#pragma endscop
}
