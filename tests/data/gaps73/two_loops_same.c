void kern(int n, double a[n], double b[n], double x[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = x[i] * 3.0;
  for (i = 0; i < n; i++)
    b[i] = a[i] * 2.0 + x[i];
#pragma endscop
}
