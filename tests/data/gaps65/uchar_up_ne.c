void kern(int n, double *a, double *c)
{
  unsigned char i;
#pragma scop
  for (i = 0; i != n; i++)
    c[i+1] = c[i] * 0.5 + a[i];
#pragma endscop
}
