#include <limits.h>
#include <stdint.h>
void kern(unsigned short n, double *x, double *y, double *b)
{
  unsigned short i;
#pragma scop
  for (i = n - 1; i != (unsigned short)-1; i--)
    y[i] = i + 1 < n ? y[i + 1] * 0.5 + x[i] : x[i] + i;
#pragma endscop
}
