#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
void kern(COUNTER n, double *restrict y, const double *restrict a);
int main(int c, char **v) {
  COUNTER n = atoi(v[1]);
  double *y = calloc(n + 1, 8), *a = malloc(8 * (n + 1));
  for (COUNTER i = 0; i < n; i++) a[i] = rand() % 97;
  kern(n, y, a);
  for (COUNTER i = 0; i < n; i++) printf("%g ", y[i]);
  printf("\n");
  free(y); free(a);
  return 0;
}
