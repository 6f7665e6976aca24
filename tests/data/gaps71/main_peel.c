#include <stdio.h>
#include <stdlib.h>
void kernel(int n, int m, double *a, double *b);
int main(int argc, char **argv) {
  int n = atoi(argv[1]), m = atoi(argv[2]);
  double *a = calloc(m, sizeof *a), *b = malloc(sizeof *b * n);
  for (int t = 0; t < n; t++) b[t] = t + 1;
  kernel(n, m, a, b);
  for (int i = 0; i < m; i++) printf("%g ", a[i]);
  printf("\n");
  return 0;
}
