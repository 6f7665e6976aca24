double three(int nt, int n, int m, double a[n][m])
{
  double s = 0.0;
#pragma scop
  for (int t = 0; t < nt; t++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < m; j++)
        s += a[k][j] * t;
#pragma endscop
  return s;
}
