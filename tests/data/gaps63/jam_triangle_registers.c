void kern(int n, double C[100], double B[100][100])
{
  int j, k;
#pragma scop
  for (j = 0; j < n; j++)
    for (k = 0; k <= j; k++)
      C[j] += B[k][j];
#pragma endscop
}
