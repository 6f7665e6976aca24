#include <stddef.h>
void smooth_rb(size_t n, int color, double h2inv, double * restrict phi, const double * restrict rhs)
{
  size_t i, j, k;
#pragma scop
  for (k = 1; k < n - 1; k++)
    for (j = 1; j < n - 1; j++)
      for (i = 1 + (j + k + color) % 2; i < n - 1; i += 2)
        phi[(k*n + j)*n + i] = (h2inv * (phi[(k*n + j)*n + i - 1] + phi[(k*n + j)*n + i + 1]
                              + phi[(k*n + j - 1)*n + i] + phi[(k*n + j + 1)*n + i]
                              + phi[((k - 1)*n + j)*n + i] + phi[((k + 1)*n + j)*n + i])
                              - rhs[(k*n + j)*n + i]) / (6.0 * h2inv);
#pragma endscop
}
