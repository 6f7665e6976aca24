void kern(int n, int m, double A[300][300], double B[300][300], double C[300][300], double *R)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++)
      C[i + 40][40] += 1;
    for (j = i % 3; j < m; j += 3)
      for (k = j; k < j + 3; k += 2)
        A[i + 40][j + 40] += 1;
  }
#pragma endscop
}
