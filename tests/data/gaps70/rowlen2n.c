/* row length 2*n written inline: each row of a holds 2*n doubles */
void rowsum2(int m, int n, const double *restrict a, double *restrict y)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 2 * n; j++)
      y[i] += a[i * (2 * n) + j];
}
