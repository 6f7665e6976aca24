#ifndef N
#define N 1000
#endif
#ifndef T
#define T 50
#endif
void heat1d(double u[2][N], double alpha)
{
  double lap;
  int t, i;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N - 1; i++) {
      lap = u[t % 2][i - 1] - 2.0 * u[t % 2][i] + u[t % 2][i + 1];
      u[(t + 1) % 2][i] = u[t % 2][i] + alpha * lap;
    }
#pragma endscop
}
