#include <stdio.h>
#ifndef N
#define N 21
#endif
static double a[64], b[64];
void kernel(void)
{
  int i, l;
  int k = N - 17;
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
  double t = 0; for (int i = 0; i < 64; i++) t += a[i] * (i + 1);
  printf("%.17g\n", t);
  return 0;
}
