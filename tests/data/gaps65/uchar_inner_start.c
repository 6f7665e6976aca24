void f(int n, double a[300][300])
{
  int i;
  unsigned char j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = i; j < 200; j++)
      a[i][j] = a[i][j] + 1.0;
#pragma endscop
}
