void kern(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[(long)i] = b[(unsigned)i] + a[(size_t)(i + 1)];
#pragma endscop
}