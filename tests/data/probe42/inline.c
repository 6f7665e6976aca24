#include <stdio.h>
typedef enum { false, true } logical;
double a[10];
void f(int n)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = 0.0;
#pragma endscop
}
