#include <stdbool.h>
void f(int n, bool flag, double *a) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] + flag * 2;
#pragma endscop
}
