/* Nekbone OpenACC port of local_grad3 (C version of the acc kernels) */
#define NX1 8
void local_grad3_acc(int nelt, double *restrict ur, double *restrict us, double *restrict ut,
                     const double *restrict u, const double *restrict D)
{
  int e, i, j, k, l;
#pragma scop
#pragma acc parallel loop gang present(ur, us, ut, u, D)
  for (e = 0; e < nelt; e++) {
#pragma acc loop collapse(3) vector
    for (k = 0; k < NX1; k++)
      for (j = 0; j < NX1; j++)
        for (i = 0; i < NX1; i++) {
          double wr = 0.0, ws = 0.0, wt = 0.0;
#pragma acc loop seq
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
#pragma endscop
}
