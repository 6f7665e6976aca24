#include <omp.h>
void layer(float *l1, float *l2, float **conn, int n1, int n2)
{
  float sum;
  int j, k;
  l1[0] = 1.0;
#ifdef OPEN
  omp_set_num_threads(4);
  #pragma omp parallel for private(k, sum)
#endif
  for (j = 1; j <= n2; j++) {
    sum = 0.0;
    for (k = 0; k <= n1; k++)
      sum += conn[k][j] * l1[k];
    l2[j] = sum;
  }
}
