/* D2Q9 BGK lattice Boltzmann, "teaching code" style (written from memory after the usual
 * lbm-d2q9 course codes: f[Q][NY][NX], pull streaming with cx/cy tables, then BGK collide). */
#define NX 64
#define NY 32
#define Q 9

static const int cx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int cy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const double w[Q] = {4.0/9.0, 1.0/9.0, 1.0/9.0, 1.0/9.0, 1.0/9.0,
                            1.0/36.0, 1.0/36.0, 1.0/36.0, 1.0/36.0};

/* streaming (pull) on the interior, no wrap */
void stream(double f_new[Q][NY][NX], double f_old[Q][NY][NX])
{
  int q, y, x;
  for (q = 0; q < Q; q++)
    for (y = 1; y < NY - 1; y++)
      for (x = 1; x < NX - 1; x++)
        f_new[q][y][x] = f_old[q][y - cy[q]][x - cx[q]];
}

/* macroscopic moments then BGK relaxation */
void collide(double f[Q][NY][NX], double rho[NY][NX], double ux[NY][NX], double uy[NY][NX],
             double omega)
{
  int q, y, x;
  for (y = 0; y < NY; y++)
    for (x = 0; x < NX; x++) {
      rho[y][x] = 0.0;
      ux[y][x] = 0.0;
      uy[y][x] = 0.0;
      for (q = 0; q < Q; q++) {
        rho[y][x] += f[q][y][x];
        ux[y][x] += cx[q] * f[q][y][x];
        uy[y][x] += cy[q] * f[q][y][x];
      }
      ux[y][x] = ux[y][x] / rho[y][x];
      uy[y][x] = uy[y][x] / rho[y][x];
      for (q = 0; q < Q; q++) {
        double cu = 3.0 * (cx[q] * ux[y][x] + cy[q] * uy[y][x]);
        double feq = w[q] * rho[y][x] * (1.0 + cu + 0.5 * cu * cu
                     - 1.5 * (ux[y][x] * ux[y][x] + uy[y][x] * uy[y][x]));
        f[q][y][x] = f[q][y][x] - omega * (f[q][y][x] - feq);
      }
    }
}
