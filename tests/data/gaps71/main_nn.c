#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void kern(int n, double *a, double *b, double *c);
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  srand(7);
  double *a = malloc(sizeof(double) * (2 * n * n + 1)), *b = malloc(sizeof(double) * (2 * n * n + 1));
  double *c = malloc(sizeof(double) * (n + 2));
  for (int i = 0; i < 2 * n * n; i++) { a[i] = rand() % 1000 / 999.0; b[i] = rand() % 1000 / 999.0; }
  for (int i = 0; i < n + 2; i++) c[i] = i * 0.25;
  kern(n, a, b, c);
  for (int i = 0; i < 2 * n * n; i++) printf("%a %a\n", a[i], b[i]);
  free(a); free(b); free(c);
  return 0;
}
