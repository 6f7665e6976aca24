/* Nekbone local_grad3 on a batch of elements (CUDA-port style loops, Fortran order):
 *   ur = (D x I x I) u,  us = (I x D x I) u,  ut = (I x I x D) u                       */
#define NX1 8

void local_grad3_batch(int nelt, double *ur, double *us, double *ut,
                       const double *u, const double *D)
{
  int e, i, j, k, l;
  for (e = 0; e < nelt; e++)
    for (k = 0; k < NX1; k++)
      for (j = 0; j < NX1; j++)
        for (i = 0; i < NX1; i++) {
          double wr = 0.0, ws = 0.0, wt = 0.0;
          for (l = 0; l < NX1; l++) {
            wr += D[i + NX1*l] * u[l + NX1*(j + NX1*(k + NX1*e))];
            ws += D[j + NX1*l] * u[i + NX1*(l + NX1*(k + NX1*e))];
            wt += D[k + NX1*l] * u[i + NX1*(j + NX1*(l + NX1*e))];
          }
          ur[i + NX1*(j + NX1*(k + NX1*e))] = wr;
          us[i + NX1*(j + NX1*(k + NX1*e))] = ws;
          ut[i + NX1*(j + NX1*(k + NX1*e))] = wt;
        }
}
