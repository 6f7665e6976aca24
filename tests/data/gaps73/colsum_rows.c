void kern(int m, int n, double cs[n], double A[m][n], double *t) {
  int i, j;
#pragma scop
  for (i = 0; i < m; i++) {
    t[i] = A[i][0] * 2.0;
    for (j = 0; j < n; j++)
      cs[j] += A[i][j];
  }
#pragma endscop
}
