void f(int n, double *a, double *b)
{
  int i;
#pragma scop
  for (i = 1; i < n; i++)
    a[i] = b[i] + \
           b[i - 1];
#pragma endscop
}
