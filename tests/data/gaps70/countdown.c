void f(int n, double *y, double *x) {
  int j;
#pragma scop
  for (j = n; j >= 2; j--)
    y[j + 2] = y[j + 3] * 0.5 + x[j];
#pragma endscop
}
