void k(int n, double *a) {
  int i;
#pragma scop
  for (i = -5; i < n; i++)
    if (0 < i < 5) a[i + 5] = a[i + 5] + 1.0;
#pragma endscop
}
