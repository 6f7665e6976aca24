#include <stdio.h>
#include <stdlib.h>
void rw(int n, int m, double A[n][m], double B[n][m], double C[n][m]);
int main(int argc, char **argv) {
  int n = atoi(argv[1]), m = atoi(argv[2]);
  double *A = malloc(sizeof(double) * (n * m + 1)), *B = malloc(sizeof(double) * (n * m + 1));
  double *C = malloc(sizeof(double) * (n * m + 1));
  for (int i = 0; i < n * m; i++) { A[i] = rand() % 1000 / 999.0; B[i] = rand() % 1000 / 999.0; C[i] = 0; }
  rw(n, m, (double (*)[m])A, (double (*)[m])B, (double (*)[m])C);
  for (int i = 0; i < n * m; i++) printf("%a %a %a\n", A[i], B[i], C[i]);
  free(A); free(B); free(C);
  return 0;
}
