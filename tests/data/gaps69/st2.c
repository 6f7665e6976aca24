#include <stdio.h>
#include <stdlib.h>
#define NM 80
double A[NM][NM], B[NM][NM];

void seidel(int n, int m) {
  int i, j;
  for (i = 1; i < n; i++)
    for (j = 1; j < m; j++)
      A[i][j] = 0.25 * (A[i - 1][j] + A[i][j - 1] + A[i - 1][j + 1] + A[i][j]) + B[i][j];
}
