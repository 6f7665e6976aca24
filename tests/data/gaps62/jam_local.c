void k(int n, double A[16][16], double B[16][16]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double t = A[i][j];
      B[i][j] = t * t;
    }
#pragma endscop
}
