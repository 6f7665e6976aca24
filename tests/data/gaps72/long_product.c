#define N 46341L
void f(double *a, double *b) {
  long i;
#pragma scop
  for (i = 0; i < N*N; i++)
    a[i] = b[i] * 2.0;
#pragma endscop
}
