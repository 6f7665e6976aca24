#define N 100
dobule a[N][N];
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    a[i][0] = 1.0;
#pragma endscop
}
