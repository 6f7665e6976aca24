void kern(int n, double y[n], double A[n][n], double x[n]) {
  int i, j;
  double s;
#pragma scop
  for (i = 0; i < n; i++) {
    s = 0.0;
    for (j = 0; j < n; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
#pragma endscop
}
