#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void f_orig(int n, double *a, double *c); void f_var(int n, double *a, double *c);
int main(int argc, char **argv) {
  int n = atoi(argv[1]); size_t N = 1000;
  double *a = malloc(N * sizeof *a), *c1 = malloc(N * sizeof *c1), *c2 = malloc(N * sizeof *c2);
  for (size_t q = 0; q < N; q++) { a[q] = (double)(q % 13) / 3.0; c1[q] = c2[q] = (double)(q % 97) / 7.0; }
  f_orig(n, a, c1); f_var(n, a, c2);
  size_t bad = 0; for (size_t q = 0; q < N; q++) bad += memcmp(&c1[q], &c2[q], sizeof(double)) != 0;
  printf("n=%d: %zu differ\n", n, bad); return bad != 0;
}
