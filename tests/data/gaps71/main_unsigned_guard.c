#include <stdio.h>
#include <stdlib.h>
void k(unsigned n, double a[n], double b[n]);
int main(int argc, char **argv) {
  unsigned n = atoi(argv[1]);
  double *a = malloc(sizeof(double) * (n + 1)), *b = malloc(sizeof(double) * (n + 1));
  for (unsigned i = 0; i < n; i++) { a[i] = rand() % 1000 / 999.0; b[i] = rand() % 1000 / 999.0; }
  a[n] = 1e300;                 /* past the array: the original never reads it */
  k(n, a, b);
  for (unsigned i = 0; i < n; i++) printf("%a\n", a[i]);
  free(a); free(b);
  return 0;
}
