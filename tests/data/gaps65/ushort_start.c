void f(int n, double *a)
{
  unsigned short i;
#pragma scop
  for (i = n; i > 0; i--)
    a[i] = a[i - 1] * 0.5 + a[i];
#pragma endscop
}
