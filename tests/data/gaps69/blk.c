#include <stdio.h>
#include <stdlib.h>
#define NM 90
double A[NM][NM], p[NM], q[NM], x[NM], y[NM];

void bicg(int n) {
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = 0.0;
    y[i] = 1.0;
    for (j = 0; j < n; j++)
      x[i] = x[i] + A[i][j] * p[j];
    for (j = 0; j < n; j++)
      y[i] = y[i] + A[j][i] * q[j];
  }
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int i, j;
  srand(7);
  for (i = 0; i < NM; i++) { p[i] = rand() / (double)RAND_MAX; q[i] = rand() / (double)RAND_MAX; x[i] = y[i] = -1;
    for (j = 0; j < NM; j++) A[i][j] = rand() / (double)RAND_MAX; }
  bicg(n);
  for (i = 0; i < NM; i++) printf("%.15g %.15g\n", x[i], y[i]);
  return 0;
}
