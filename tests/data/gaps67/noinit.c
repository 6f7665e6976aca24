void kern(int n, double *a, double *b) {
  int i = 0;
#pragma scop
  for (; i < n - 3; i += 4) {
    a[i] = b[i]; a[i + 1] = b[i + 1]; a[i + 2] = b[i + 2]; a[i + 3] = b[i + 3];
  }
  for (; i < n; i++)
    a[i] = b[i] * 2.0;
#pragma endscop
}