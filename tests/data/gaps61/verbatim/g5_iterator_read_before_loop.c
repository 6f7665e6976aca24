void f(int n, int k, double *a, double *b) {
  int i;
  i = k;
#pragma scop
  b[0] = i;
  for (i = 0; i < n; i++)
    a[i] = 1;
#pragma endscop
}
