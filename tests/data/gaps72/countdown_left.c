#include <limits.h>
void kern(unsigned n, double *x, double *y)
{
  unsigned i;
#pragma scop
  for (i = n - 1; UINT_MAX != i; --i)
    y[i] = y[i + 1] * 0.5 + x[i];
#pragma endscop
}
