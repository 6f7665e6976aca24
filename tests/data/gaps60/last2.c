#include <math.h>
double f(int n, int m, double A[n][m], double B[n][m]) {
  int i, j; double t = 0.0;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      t = A[i][j] * 2.0;
      B[i][j] = t * t;
    }
#pragma endscop
  return t;
}
