#include <stdio.h>
#define N 65536
double a[10];
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < 4; i++)
    a[(i * N * N) % 10] += 1.0;
#pragma endscop
}
int main(void) { f(); for (int k=0;k<10;k++) printf("%.0f ", a[k]); printf("\n"); return 0; }
