/* S2 reads the a[] that S0 writes; S1 is a recurrence of its own */
void three(int n, double *a, double *b, double *c, double *d)
{
  int i;
#pragma scop
  for (i = 1; i < n; i++) {
    a[i] = d[i] * 2.0;
    b[i] = b[i - 1] * 0.5 + d[i];
    c[i] = a[i] * 3.0 + a[i - 1];
  }
#pragma endscop
}
