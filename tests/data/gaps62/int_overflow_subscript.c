void k(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i * 65536 * 65536 + i] = b[i];
#pragma endscop
}
