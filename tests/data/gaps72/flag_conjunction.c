void kern(int n, double *x, double *b, double *y)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    int ok = i + 1 < n && b[i] > 0.5;
    y[i] = ok ? x[i + 1] : 0.0;
  }
#pragma endscop
}
