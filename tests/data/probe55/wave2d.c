/* Acoustic wave equation, second order in time (leap-frog), as in the usual seismic / teaching
 * codes (written from memory): u_next = 2u - u_prev + (c dt/dx)^2 lap(u), then rotate the
 * three time levels by copying. */
void wave2d(int nt, int nx, int ny, double c2, double u_prev[ny][nx], double u[ny][nx],
            double u_next[ny][nx])
{
  int n, i, j;
  for (n = 0; n < nt; n++) {
    for (j = 1; j < ny - 1; j++)
      for (i = 1; i < nx - 1; i++)
        u_next[j][i] = 2.0 * u[j][i] - u_prev[j][i]
                     + c2 * (u[j][i+1] + u[j][i-1] + u[j+1][i] + u[j-1][i] - 4.0 * u[j][i]);
    for (j = 1; j < ny - 1; j++)
      for (i = 1; i < nx - 1; i++) {
        u_prev[j][i] = u[j][i];
        u[j][i] = u_next[j][i];
      }
  }
}
