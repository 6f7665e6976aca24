void kern(int n, double *a, double *c)
{
  unsigned char i;
#pragma scop
  for (i = n; i != 0; i--)
    c[i] = c[i+1] * 0.5 + a[i];
#pragma endscop
}
