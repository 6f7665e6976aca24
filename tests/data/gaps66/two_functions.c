void g(int n, double *a)
{
  short i;
  for (i = 0; i < n; i++)
    a[i] = a[i] * 3.0;
}
void f(int n, double *a, double *b)
{
  int i;
  for (i = 0; i < (n - 1) / 2; i++)
    a[i] = a[i] + b[i] * 2.0;
}
