void k(int n, double A[40][40], double B[40][40]) {
  long i; int j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = B[i][j] + (j - 3 < 5u ? 1.0 : 2.0);
#pragma endscop
}
