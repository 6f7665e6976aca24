#include <stdio.h>
#define N 21
static double a[64], b[64];
void kernel(void)
{
  int i, l;
  signed char k = N * 12 + 7;
#pragma scop
  for (i = 0; i < N; i++)
    for (l = 0; l < k; l++)
      a[i] = a[i] * 0.5 + b[i + l];
#pragma endscop
}
int main(void)
{
  unsigned s = 3u;
  for (int i = 0; i < 64; i++) { s = s*1103515245u+12345u; a[i] = (s>>8)/16777216.0; s = s*1103515245u+12345u; b[i] = (s>>8)/16777216.0; }
  kernel();
  unsigned long hh = 1469598103934665603ul;
  for (int i = 0; i < 64; i++) { unsigned long x; __builtin_memcpy(&x,&a[i],8); hh = (hh ^ x) * 1099511628211ul; }
  printf("%016lx\n", hh);
  return 0;
}
