#define N 64
#define M 8
double a[N][M], s[M], t[M][M];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      s[j] += a[i][j];
#pragma endscop
}
