#if N > 20
#define V(x) (x)
#else
#define V(x) (-(x))
#endif
void f(double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    a[i] = V(b[i]);
#pragma endscop
}
