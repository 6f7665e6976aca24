#include <stddef.h>
void kern(size_t n, size_t m, double C[n][m], double x[n], double B[n][m])
{
  size_t i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      C[i][j] = i - 1 < n ? x[i - 1] * B[i][j] : 0.0;
#pragma endscop
}
