void f(int n, double *a, double *b, double *c) {
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = b[i] * 2.0;
  for (int i = 0; i < n; i++)
    c[i] = a[i] + 1.0;
#pragma endscop
}
