/* matrix product with a scalar accumulator, as users write it */
void mm_acc(int n, int m, int p, double C[n][m], const double A[n][p], const double B[p][m])
{
  double sum;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      sum = 0.0;
      for (int k = 0; k < p; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
#pragma endscop
}
