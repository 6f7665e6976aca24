#include <math.h>
#define MIN(a,b) (((a)<(b))?(a):(b))
void visc(int n, double *celldx, double *celldy, double *p, double *v)
{
  int j;
  double lim, pgrad, xgrad, ygrad, grad;
#pragma scop
  for (j = 1; j < n; j++) {
    lim = p[j + 1] - p[j - 1];
    if (lim > 0.0) {
      v[j] = 0.0;
    } else {
      pgrad = sqrt(lim * lim);
      xgrad = fabs(celldx[j] * pgrad / lim);
      ygrad = fabs(celldy[j] * pgrad / lim);
      grad  = MIN(xgrad,ygrad);
      v[j] = grad * grad;
    }
  }
#pragma endscop
}
