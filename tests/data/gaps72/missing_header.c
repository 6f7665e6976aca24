
void f(double *a, double *b, int n) {
  int i;
  unsigned q = (uint32_t)n; (void)q;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] * 2.0;
#pragma endscop
}
