#include <stdio.h>
#include <stdlib.h>
void kern(int n, int m, double *restrict y, const double *restrict a);
int main(int c, char **v) { int n = atoi(v[1]), m = atoi(v[2]); double *y = calloc(2*n*m+1, 8), *a = malloc(8*(2*n*m+1));
 for (int i = 0; i < 2*n*m; i++) a[i] = rand() % 97; kern(n, m, y, a); for (int i = 0; i < 2*n*m; i++) printf("%g ", y[i]); printf("\n"); }
