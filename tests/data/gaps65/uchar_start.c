void f(int m, int n, double *a)
{
  unsigned char i;
#pragma scop
  for (i = m; i < n; i++)
    a[i] = a[i] + 1.0;
#pragma endscop
}
