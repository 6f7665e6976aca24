#include <stdint.h>
#include <stddef.h>
/* int n widened to long and back to int: always fits, yet a range note and a dead guard appear */
static int lim(long x) { return x; }
void hs(int n, double A[300])
{
  int i;
#pragma scop
  for (i = 0; i < lim(n); i++)
    A[i] = A[i] + 1.0;
#pragma endscop
}
