
void f(double *a, double *b, int n) {
  int i;
  int nf(int x) { return x; } (void)nf(1);
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] * 2.0;
#pragma endscop
}
