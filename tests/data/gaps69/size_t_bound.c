#include <stddef.h>
void f(size_t n, double *a) {
  unsigned i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] * 0.5 + 1.0;
#pragma endscop
}
