#include <stddef.h>
void f(int lo, int hi, double *a) {
  unsigned i;
#pragma scop
  for (i = lo; i < hi; i++)
    a[i] = a[i] + 1.0;
#pragma endscop
}
