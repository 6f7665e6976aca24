#include "stdlib.h"
#include "math.h"
void f(int n, float *restrict a, const float *restrict b)
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = sqrtf(b[i]);
#pragma endscop
}
