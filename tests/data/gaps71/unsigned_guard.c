void k(unsigned n, double a[n], double b[n]) {
  unsigned i;
#pragma scop
  for (i = n - 1; i != (unsigned)-1; --i)
    a[i] = (i + 1 < n ? a[i + 1] : 0.0) + b[i];
#pragma endscop
}
