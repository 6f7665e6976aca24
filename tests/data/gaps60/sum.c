double f(int n, double A[n][n]) {
  int i, j; double s = 0.0;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      s = s + A[i][j];
#pragma endscop
  return s;
}
