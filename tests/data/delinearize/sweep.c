/* An in-place Gauss-Seidel sweep over a halo-padded 3-D grid, the index in Horner form: the
 * dependences are those of g[k][j][i] in planes of ny + 2 rows of nx + 2. */
void sweep(int nx, int ny, int nz, double *g)
{
  int i, j, k;
  for (k = 1; k <= nz; k++)
    for (j = 1; j <= ny; j++)
      for (i = 1; i <= nx; i++)
        g[((k*(ny+2) + j)*(nx+2) + i)] = 0.25 * (g[((k*(ny+2) + j)*(nx+2) + i - 1)] +
                                                 g[(((k-1)*(ny+2) + j)*(nx+2) + i)] +
                                                 g[((k*(ny+2) + j - 1)*(nx+2) + i)] +
                                                 g[((k*(ny+2) + j)*(nx+2) + i + 1)]);
}
