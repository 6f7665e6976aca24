#include "defs.h"
void f(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = SCALE(b[i]);
#pragma endscop
}
