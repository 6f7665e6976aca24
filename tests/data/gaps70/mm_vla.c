void mm(int n, double C[n][n], double A[n][n], double B[n][n]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
