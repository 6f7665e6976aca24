void f(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = __builtin_fabs(b[i]) * 2.0 + __builtin_fabs(b[i] - 1.0);
#pragma endscop
}
