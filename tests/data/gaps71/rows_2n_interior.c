void kern(int n, double *a, double *b, double *c) {
  int i, j, k;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < 2*n - 1; j++)
      a[2*(i*n) + j] = a[2*((i-1)*n) + j + 1] + a[2*((i-1)*n) + j - 1];
#pragma endscop
}
