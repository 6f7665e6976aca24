#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void f_orig(int n, double *a); void f_var(int n, double *a);
int main(int argc, char **argv) {
  int n = atoi(argv[1]); size_t N = 200000;
  double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  for (size_t q = 0; q < N; q++) a[q] = b[q] = (double)(q % 97) / 7.0;
  f_orig(n, a); f_var(n, b);
  size_t bad = 0; for (size_t q = 0; q < N; q++) bad += memcmp(&a[q], &b[q], sizeof(double)) != 0;
  printf("n=%d: %zu elements differ\n", n, bad); return bad != 0;
}
