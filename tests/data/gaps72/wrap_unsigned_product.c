#define N 65536u
void f(double *a, double *b) {
  long i;
#pragma scop
  for (i = 0; i < N*N; i++)
    a[i] = b[i];
#pragma endscop
}
