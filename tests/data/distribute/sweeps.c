#define N 16
void sweeps(double x[N][N], double y[N][N], double z[N][N])
{
  int i, k;
  double t, u;
#pragma scop
  for (i = 0; i < N; i++) {
    for (k = 1; k < N; k++) {          /* forward sweep */
      t = x[i][k] - y[i][k - 1];
      y[i][k] = 0.5 * t;
    }
    for (k = N - 2; k >= 0; k--) {     /* backward sweep */
      u = y[i][k] - z[i][k + 1];
      z[i][k] = 0.5 * u;
    }
  }
#pragma endscop
}
