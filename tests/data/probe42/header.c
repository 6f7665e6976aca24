/* NPB's usual prologue: <stdio.h> first, then the benchmark's type.h */
#include <stdio.h>
#include "type.h"
double a[10];
logical timeron;
void f(int n)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0.0;
#pragma endscop
}
