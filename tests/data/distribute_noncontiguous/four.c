/* three.c and a fourth statement, left out of the groups, that reads S2's c[] */
void four(int n, double *a, double *b, double *c, double *d, double *e)
{
  int i;
#pragma scop
  for (i = 1; i < n; i++) {
    a[i] = d[i] * 2.0;
    b[i] = b[i - 1] * 0.5 + d[i];
    c[i] = a[i] * 3.0 + a[i - 1];
    e[i] = c[i] - d[i - 1];
  }
#pragma endscop
}
