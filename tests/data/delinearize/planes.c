/* Rows of nx (no halo in x), planes of ny + 2 rows (a halo in y only). */
void planes(int nx, int ny, int nz, double *a, const double *b)
{
  int i, j, k;
  for (k = 1; k <= nz; k++)
    for (j = 1; j <= ny; j++)
      for (i = 0; i < nx; i++)
        a[k*(ny+2)*nx + j*nx + i] = a[(k-1)*(ny+2)*nx + (j+1)*nx + i] + b[k*(ny+2)*nx + (j-1)*nx + i];
}
