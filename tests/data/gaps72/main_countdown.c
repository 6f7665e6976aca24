#include <stdio.h>
#include <stdlib.h>
void kern(NTYPE n, double *x, double *y);
int main(int argc, char **argv) {
  unsigned n = atoi(argv[1]);
  double *x = malloc(sizeof(double) * (n + 2)), *y = malloc(sizeof(double) * (n + 2));
  for (unsigned i = 0; i < n + 2; i++) { x[i] = rand() % 1000 / 999.0; y[i] = rand() % 1000 / 999.0; }
  x[n] = 1e300;                 /* past the array: the original never reads it */
  kern(n, x, y);
  for (unsigned i = 0; i < n + 1; i++) printf("%a\n", y[i]);
  return 0;
}
