#ifndef N
#define N 100
#endif
double a[N], b[N], c[N], d[N], e[N], f[N], g[N];

void init(void)
{
#pragma scop
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = 1.0;
  }
#pragma endscop
}

void work(void)
{
#pragma scop
  for (int i = 0; i < N; i++) {
    c[i] = a[i] + 1.0;
    d[i] = b[i] * 2.0;
    e[i] = c[i] + d[i];
    f[i] = a[i] - b[i];
    g[i] = f[i] * 3.0;
    a[i] = e[i] + g[i];
  }
#pragma endscop
}
