#define N 100
double a[N][N], b[N][N];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++
    for (j = 0; j < N; j++)
      a[i][j] = b[i][j];
#pragma endscop
}
