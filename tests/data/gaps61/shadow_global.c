int g = 4;
void k(int n, double A[40][40], double B[40][40]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < g; j++) {
      double g = B[i][j] * 2;
      A[i][j] = A[i][j] + g;
    }
#pragma endscop
}
