/* Dense matrix product C += A * B (double), timed around the marked region.
 * looptx keeps the sizes symbolic: compile with -DN=... to change them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 1024
#endif

static double A[N][N], B[N][N], C[N][N];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void matmul(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            for (k = 0; k < N; k++)
                C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
    unsigned s = 12345u;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s = s * 1103515245u + 12345u; A[i][j] = 0.5 + (s >> 8) / 16777216.0;
            s = s * 1103515245u + 12345u; B[i][j] = 0.5 + (s >> 8) / 16777216.0;
            C[i][j] = 1.0;
        }
    double t0 = now();
    matmul();
    double t = now() - t0;
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += C[i][j] * ((i + 2 * j) % 7 + 1);
    printf("time %.6f s  %.2f GFLOP/s  checksum %.17g\n", t, 2.0 * N * N * (double)N / t * 1e-9, sum);
    return 0;
}
