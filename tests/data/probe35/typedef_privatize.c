typedef double real_t;
void f(int n, int m, real_t *a, real_t *y)
{
  int i, j;
  real_t s;
#pragma scop
  for (i = 0; i < n; i++) {
    s = 0.;
    for (j = 0; j < m; j++)
      s += a[i * m + j];
    y[i] = s;
  }
#pragma endscop
}
