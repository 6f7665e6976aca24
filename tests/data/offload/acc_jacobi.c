#include <math.h>

/* the OpenACC tutorial's Jacobi step, its long directive continued over two lines */
double jacobi_step(int n, int m, double A[n][m], double Anew[n][m])
{
  double err = 0.0;
#pragma acc parallel loop reduction(max:err) \
        present(A[0:n][0:m], Anew[0:n][0:m])
#pragma scop
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m - 1; i++) {
      Anew[j][i] = 0.25 * (A[j][i+1] + A[j][i-1] + A[j-1][i] + A[j+1][i]);
      err = fmax(err, fabs(Anew[j][i] - A[j][i]));
    }
#pragma endscop
  return err;
}
