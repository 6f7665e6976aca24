#include <stdio.h>
#include <stdlib.h>
void kern(unsigned n, double *x, double *y);
int main(int argc, char **argv) {
  unsigned n = atoi(argv[1]);
  double *x = malloc(sizeof(double) * (n + 1)) + 1, *y = malloc(sizeof(double) * (n + 1));
  x[-1] = 1e300;                /* before the array: the original never reads it */
  for (unsigned i = 0; i < n; i++) x[i] = rand() % 1000 / 999.0;
  kern(n, x, y);
  for (unsigned i = 0; i < n; i++) printf("%a\n", y[i]);
  return 0;
}
