#define N 64
void f(int lo, double a[N][N], double b[N][N]) {
  int i, j;
  for (i = lo; i < N; i++) for (j = 0; j <= i; j++) a[i][j] = b[i][j];
}
