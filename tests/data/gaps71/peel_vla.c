void kernel(int n, int m, double a[m], double b[n]) {
  int t, i;
#pragma scop
  for (t = 0; t < n; t++)
    for (i = 0; i < m; i++)
      a[i] = a[i] + b[t];
#pragma endscop
}
