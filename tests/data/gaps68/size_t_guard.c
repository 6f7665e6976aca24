#include <stddef.h>
void f(unsigned m, size_t n, double *a, double *b) {
  unsigned i;
#pragma scop
  for (i = 0; i < m; i++)
    if (i >= n)
      a[i] = a[i] * 0.5 + b[i];
#pragma endscop
}
