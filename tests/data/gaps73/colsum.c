void kern(int n, double cs[n], double A[n][n]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      cs[j] += A[i][j];
#pragma endscop
}
