void f(int n, int m, double *a, double *b)
{
  int i, j;
  double t;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      t = 0.5 * a[i*m + j];
      b[i*m + j] = t * t;
    }
#pragma endscop
}
