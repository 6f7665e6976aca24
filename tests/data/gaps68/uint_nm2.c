void kern(unsigned n, double *a, double *b) {
  unsigned i;
#pragma scop
  for (i = 0; i < n - 2; i++)
    a[i] = a[i + 2] + b[i];
#pragma endscop
}