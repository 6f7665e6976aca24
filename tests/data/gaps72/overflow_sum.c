#include <stdio.h>
double a[10];
void f(void) {
  long i;
#pragma scop
  for (i = 0; i < 2147483647 + 1; i++)
    a[0] += 1.0;
#pragma endscop
}
int main(void) { f(); printf("%.1f\n", a[0]); return 0; }
