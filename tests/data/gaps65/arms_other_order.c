void kern(int n, double *a, double *b, double *c)
{
  int k;
  double r, s;
#pragma scop
  for (k = 0; k < n; k++) {
    if (a[k] > b[k]) { r = a[k]; s = b[k]; }
    else             { s = a[k]; r = b[k]; }
    c[k] = r - s;
  }
#pragma endscop
}
