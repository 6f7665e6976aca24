void f(int n, double a[n], double b[n], double c[n], double d[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = 0;
  for (int i = 0; i < n; i++) {
    b[i] = 0;
    for (int j = 0; j < n; j++)
      b[i] += c[j];
  }
  for (int i = 0; i < n; i++)
    d[i] = b[i];
#pragma endscop
}
