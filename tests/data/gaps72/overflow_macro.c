#include <stdio.h>
#define N 46341
double a[10];
void f(void) {
  long i;
#pragma scop
  for (i = 0; i < N*N; i++)
    a[0] += 1.0;
#pragma endscop
}
int main(void) { f(); printf("%.1f\n", a[0]); return 0; }
