void f(int n, double a[n][n], double b[n], double c[n])
{ int i;
#pragma scop
  {
    int k = 1;
    for (i = 0; i < n; i++) {
      for (int k = 0; k < n - 2; k++)
        b[i] += a[i][k];
      c[i] += a[i][k];
    }
  }
#pragma endscop
}
