#include <stdio.h>
#include <stdlib.h>
void f(int n, double a[n], double b[n], double c[n], double d[n]);
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double *a = malloc(sizeof(double) * (n + 1)), *b = malloc(sizeof(double) * (n + 1));
  double *c = malloc(sizeof(double) * (n + 1)), *d = malloc(sizeof(double) * (n + 1));
  for (int i = 0; i < n; i++) c[i] = rand() % 1000 / 999.0;
  f(n, a, b, c, d);
  for (int i = 0; i < n; i++) printf("%a %a %a\n", a[i], b[i], d[i]);
  return 0;
}
