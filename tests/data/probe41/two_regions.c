void f(int n, double *a, double *b, double *c, double *d)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 2.0 * b[i];
#pragma endscop
#pragma scop
  for (i = 0; i < n; i++) {
    c[i] = a[i] + 1.0;
    d[i] = c[i] * b[i];
  }
#pragma endscop
}
