void f(int n, double a[n][n], double b[n], double c[n])
{ int i;
#pragma scop
  for (i = 0; i < n; i++) {
    int k = 1;
    for (int k = 0; k < n - 2; k++)
      b[i] += a[i][k];
    c[i] = k;
  }
#pragma endscop
}
