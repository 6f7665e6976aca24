#define NMAX 64
double a[NMAX][NMAX], x[NMAX], s[NMAX], y[NMAX];
void k2(int n, int m) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    s[i] = 0.0;
    for (j = 0; j < m; j++)
      s[i] += a[i][j] * x[j];
    y[i] = s[i] * 2.0;
  }
#pragma endscop
}
