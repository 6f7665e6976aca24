#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define IDX(i,j) ((i)*ny+(j))

/* explicit 2-D heat equation, FTCS; the two grids swap every step */
void heat(int nx, int ny, int nsteps, double alpha, double *u, double *unew)
{
  double *tmp;
  int i, j, t;

  for (t = 0; t < nsteps; t++) {
#pragma acc parallel loop collapse(2) present(u[0:nx*ny], unew[0:nx*ny])
#pragma scop
    for (i = 1; i < nx-1; i++)
      for (j = 1; j < ny-1; j++)
        unew[IDX(i,j)] = u[IDX(i,j)] + alpha * (u[IDX(i+1,j)] + u[IDX(i-1,j)]
                        + u[IDX(i,j+1)] + u[IDX(i,j-1)] - 4.0*u[IDX(i,j)]);
#pragma endscop
    tmp = u; u = unew; unew = tmp;
  }
}
