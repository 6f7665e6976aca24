#include <stdio.h>
#include <stdlib.h>
void KERNEL(int n, int m, double C[n][m], double A[n][m], double B[n][m]);
int main(int argc, char **argv) {
  int n = atoi(argv[1]), m = atoi(argv[2]);
  double *A = malloc(sizeof(double) * (n * m + 1)), *B = malloc(sizeof(double) * (n * m + 1));
  double *C = malloc(sizeof(double) * (n * m + 1));
  srand(7);
  for (int q = 0; q < n * m; q++) { A[q] = rand() / (double)RAND_MAX; B[q] = rand() / (double)RAND_MAX; C[q] = 0; }
  KERNEL(n, m, (void *)C, (void *)A, (void *)B);
  for (int q = 0; q < n * m; q++) printf("%a\n", C[q]);
  free(A); free(B); free(C);
  return 0;
}
