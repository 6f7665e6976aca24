#include <stdio.h>
#define N 29
static double a[N][N], y[N];
double rows(int n)
{
  double s, tot = 0.0;
  int j, k;
#pragma omp parallel for private(k, s) reduction(+: tot)
  for (j = 0; j < n; j++) {
    s = 0.0;
    for (k = 0; k < n; k++)
      s += a[j][k];
    y[j] = s;
    tot += s;
  }
  return tot;
}
int main(void)
{
  for (int j = 0; j < N; j++) for (int k = 0; k < N; k++) a[j][k] = (j * 31 + k * 17) % 13 * 0.25;
  printf("%.17g\n", rows(N));
  return 0;
}
