void kern(int n, int m, double A[300][300], double B[300][300], double *R)
{
  int i, j, k, l;
  double acc = 0;
#pragma scop
  for (i = 0; i < 2; i++)
  for (j = 3; j < 6; j++)
    for (k = j; k >= 0; k -= 3)
      for (l = k; l < m; l++)
        acc += 1;
#pragma endscop
  R[0] = acc;
}
