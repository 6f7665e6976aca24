void kern(int n, double *a, double *b, double *c) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < 2*n; j++)
      a[i*2*n + j] = a[i*2*n + j - 1] * 0.5 + b[i*2*n + j];
#pragma endscop
}
