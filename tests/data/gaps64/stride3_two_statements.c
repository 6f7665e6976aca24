void kern(int n, int m, double A[300][300], double *R)
{
  int i, j, k;
#pragma scop
  for (i = n % 3; i < n; i += 3) {
    for (j = (i + 1) % 3; j < m; j += 3)
      for (k = j % 2; k < 6; k += 2)
        A[j][i] = A[j + 3][k] - 1;
    for (j = i + 1; j < m; j += 3)
      A[j][i] = A[j + 3][i] - 1;
  }
#pragma endscop
}
