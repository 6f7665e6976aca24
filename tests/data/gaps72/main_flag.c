#include <stdio.h>
#include <stdlib.h>
void kern(int n, double *x, double *b, double *y);
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double *x = malloc(sizeof(double) * (n + 1)), *b = malloc(sizeof(double) * (n + 1)), *y = malloc(sizeof(double) * (n + 1));
  for (int i = 0; i < n; i++) { x[i] = rand() % 1000 / 999.0; b[i] = rand() % 1000 / 999.0; }
  x[n] = 1e300;
  kern(n, x, b, y);
  for (int i = 0; i < n; i++) printf("%a\n", y[i]);
  return 0;
}
