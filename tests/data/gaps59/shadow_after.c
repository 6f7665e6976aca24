void f(int n, double a[n][n], double b[n])
{
  int i, k;
  k = 2;
#pragma scop
  for (i = 0; i < n; i++) {
    for (int k = 0; k < n - 1; k++)
      b[i] += a[i][k];
    b[i] += a[i][k];
  }
#pragma endscop
}
