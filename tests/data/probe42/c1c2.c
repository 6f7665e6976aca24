/* NPB SP compute_rhs: speed = sqrt(c1c2*rho_inv*(u4 - square)) is NaN on random data */
#include <math.h>
double c1c2, u4[64], square[64], speed[64];
void f(int n)
{
  int i;
  double aux;
#pragma scop
  for (i = 0; i < n; i++) {
    aux = c1c2 * (u4[i] - square[i] - 2.0);
    speed[i] = sqrt(aux);
  }
#pragma endscop
}
