#include <stdint.h>
static inline int32_t SSAT_E(int32_t val, uint32_t sat)
{
  int32_t max = (1U << (sat - 1U)) - 1U;
  int32_t min = -1 - max ;
  return val > max ? max : (val < min ? min : val);
}
void f(const int32_t *x, int16_t *y, int n)
{
  int i;
  for (i = 0; i < n; i++)
    y[i] = (int16_t) SSAT_E(x[i] >> 15, 16);
}
