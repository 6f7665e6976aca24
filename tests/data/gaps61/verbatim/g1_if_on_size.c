#define N 100
void f(double *a) {
  int i;
#pragma scop
  for (i = 0; i < N; i++) {
#if N > 50
    a[i] = 1;
#else
    a[i] = 2;
#endif
  }
#pragma endscop
}
