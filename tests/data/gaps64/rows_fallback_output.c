/*
 * looptx 0.1.0: generated from g1_ola.c
 * recipe applied:
 *   tile: {stmt: 0, loop: j, size: 4}
 */
void kern(int n, int k, int s, double *y, double x[64][64])
{
  int i, j;
#pragma scop
#ifndef lx_floord
#define lx_floord(n, d) (((long long)(n) - (((long long)(n) % (d) + (d)) % (d))) / (d))
#endif
#ifndef lx_min
#define lx_min(a, b) ((a) < (b) ? (a) : (b))
#endif
  {
    if (s >= k) {
      for (i = 0; i < n; i++)
        for (int jj = 0; jj <= lx_floord(k - 1, 4); jj++)
          for (j = 4 * jj; j <= lx_min(k - 1, 4 * jj + 3); j++)
            y[i * s + j] += x[i][j];
    } else {
      for (i = 0; i < n; i++)
        for (j = 0; j < k; j++)
          y[i * s + j] += x[i][j];
    }
  }
#pragma endscop
}
