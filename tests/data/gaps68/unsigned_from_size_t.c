#include <stddef.h>
void f(size_t n, size_t m, double *a, double *b) {
  unsigned i; int j;
#pragma scop
  for (j = 0; j < 3; j++)
    for (i = m; i <= 2*n + 1; i += 5)
      a[i] = a[i] * 0.5 + b[i] + j;
#pragma endscop
}
