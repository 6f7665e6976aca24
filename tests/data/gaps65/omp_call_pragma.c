#include <omp.h>
void scale(int n, double *x, double *y) {
  int i;
#ifdef OPEN
  omp_set_num_threads(4);
  #pragma omp parallel for
#endif
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
#pragma endscop
}
