void f(int n, double x[n], double y[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = 2 * x[i];
  for (i = 0; i < n; i++)
    y[i] = y[i] + x[i];
#pragma endscop
}
