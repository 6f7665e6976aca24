#define N 8
#define M 3
double a[N][M], s[M];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      s[j] += a[i][j];
#pragma endscop
}
