void k(int n, volatile double *out, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    if (b[i] > 1.0) out[i] = b[i];
#pragma endscop
}
