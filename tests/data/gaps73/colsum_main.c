#include <stdio.h>
#include <stdlib.h>
void kern(int n, double cs[n], double A[n][n]);
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double *cs = calloc(n + 1, sizeof *cs), *A = calloc(n * n + 1, sizeof *A);
  for (int i = 0; i < n * n; i++) A[i] = i % 7;
  kern(n, cs, (void *)A);
  double s = 0; for (int j = 0; j < n; j++) s += cs[j] * (j + 1);
  printf("n=%d checksum %g\n", n, s);
  return 0;
}
