#define N 1000
double a[N], b[N];
void f(void) {
  int m = N / 2;
#pragma scop
  for (int i = 0; i < m; i++)
    a[i] = b[i + m];
#pragma endscop
}
