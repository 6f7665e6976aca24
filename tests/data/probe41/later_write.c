void g(int n, double *a, double *b, double *c)
{
  int i;
  double t;
#pragma scop
  for (i = 0; i < n; i++) {
    t = a[i] * 0.5;
    b[i] = t * t;
  }
#pragma endscop
  for (i = 0; i < n; i++) {
    t = a[i] + 1.0;
    c[i] = t;
  }
}
