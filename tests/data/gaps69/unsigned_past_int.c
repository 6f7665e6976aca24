void f(unsigned n, double *c) {
  unsigned i;
#pragma scop
  for (i = 0; i < n; i += 1000)
    c[i % 7] += i;
#pragma endscop
}
