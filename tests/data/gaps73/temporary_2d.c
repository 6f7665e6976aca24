void kern(int n, double B[n][n], double A[n][n]) {
  int i, j;
  double t;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      t = A[i][j] * 2.0 + A[j][i];
      B[i][j] = t * t - A[i][j];
    }
#pragma endscop
}
