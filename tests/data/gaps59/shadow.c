void f(int n, double a[n][n], double b[n])
{
  int i, k;
#pragma scop
  for (i = 0; i < n; i++) {
    k = 0;
    b[i] = a[i][k];
    for (int k = 1; k < n; k++)
      b[i] += a[i][k];
  }
#pragma endscop
}
