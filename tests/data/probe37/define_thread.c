/* minimal: a thread loop bounded by a #define (Orio/TCR-generated Nek5000 kernels, CUDA-CHiLL recepi_0.lua) */
#define K 10
#define NELT 1000

void g(double *u, double *w) {
  int e, k;
  for (e = 0; e < NELT; e++)
    for (k = 0; k < K; k++)
      w[e*K + k] = 2.0 * u[e*K + k];
}
