#include <stdio.h>
#include <stdlib.h>
#define NM 70
double A[NM][NM], B[NM][NM], C[NM][NM];

void mm(int an, int bm, int ambn) {
  int i, j, n;
  for (i = 0; i < an; i++)
    for (j = 0; j < bm; j++) {
      C[i][j] = 0.0;
      for (n = 0; n < ambn; n++)
        C[i][j] += A[i][n] * B[n][j];
    }
}
