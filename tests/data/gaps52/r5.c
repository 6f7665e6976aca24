#ifndef N
#define N 200
#endif
#ifndef T
#define T 10
#endif
void r5(double A[N], double B[N])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 5; i < N - 5; i++)
      B[i] = 0.5 * (A[i - 5] + A[i + 5]);
    for (int i = 5; i < N - 5; i++)
      A[i] = 0.5 * (B[i - 5] + B[i + 5]);
  }
#pragma endscop
}
