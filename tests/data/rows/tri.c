/* a lower-triangular matrix stored row by row: row i holds i + 1 elements */
void tri(double **L, double *x, double *b, int n)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      x[i] += L[i][j] * b[j];
}
