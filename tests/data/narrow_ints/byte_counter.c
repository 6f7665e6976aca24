#include <stdint.h>

/* A byte counter over an int size: the generated loops' values need not fit it */
void add1(double *x, int n)
{
  uint8_t i;
  for (i = 0; i < n; i++)
    x[i] += 1.0;
}
