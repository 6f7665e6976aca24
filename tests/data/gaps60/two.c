#define NMAX 64
double a[NMAX][NMAX], b[NMAX][NMAX], c[NMAX][NMAX];
void two(int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      a[i][j] = b[i][j] + 1.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      c[i][j] = a[i][j] * 2.0;
#pragma endscop
}
