#include <stdio.h>
#include <stdlib.h>
void jac2(int T, int n, double A[n], double B[n]);
int main(int argc, char **argv) {
  int T = atoi(argv[1]), n = atoi(argv[2]);
  double *A = malloc(sizeof(double) * n), *B = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) { A[i] = rand() % 1000 / 999.0; B[i] = -1.0 - i; }
  jac2(T, n, A, B);
  for (int i = 0; i < n; i++) printf("%a %a\n", A[i], B[i]);
  free(A); free(B);
  return 0;
}
