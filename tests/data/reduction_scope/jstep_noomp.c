#include <math.h>

double jacobi_step(int n, int m, double A[n][m], double Anew[n][m])
{
  double err = 0.0;
  int i, j;

#pragma scop
  for (j = 1; j < n-1; j++)
    for (i = 1; i < m-1; i++) {
      Anew[j][i] = 0.25 * (A[j][i+1] + A[j][i-1] + A[j-1][i] + A[j+1][i]);
      err = fmax(err, fabs(Anew[j][i] - A[j][i]));
    }
#pragma endscop
  return err;
}
