/* miniGhost's 7-point stencil (MG_STENCIL_3D7PT): a 3-D grid with a halo of 1 on each side,
 * read through its GRID_IN macro, planes of ny + 2 rows of nx + 2. */
#define GRID_IN(i, j, k) grid_in[(k)*(ny+2)*(nx+2) + (j)*(nx+2) + (i)]
#define GRID_OUT(i, j, k) grid_out[(k)*(ny+2)*(nx+2) + (j)*(nx+2) + (i)]
void st7(int nx, int ny, int nz, const double *grid_in, double *grid_out)
{
  int i, j, k;
  for (k = 1; k <= nz; k++)
    for (j = 1; j <= ny; j++)
      for (i = 1; i <= nx; i++)
        GRID_OUT(i, j, k) = (GRID_IN(i - 1, j, k) + GRID_IN(i + 1, j, k) + GRID_IN(i, j - 1, k) +
                             GRID_IN(i, j + 1, k) + GRID_IN(i, j, k - 1) + GRID_IN(i, j, k + 1) +
                             GRID_IN(i, j, k)) / 7.0;
}
