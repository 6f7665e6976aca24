// sizes: TSTEPS=8 N=16 | TSTEPS=5 N=13
// region: pragma
/* heat-3d (PolyBench 4.2): 7-point 3-D stencil, time loop from 1, A and B ping-pong. */
#include "harness.h"

#ifndef TSTEPS
#define TSTEPS 8
#endif
#ifndef N
#define N 16
#endif

static double A[N][N][N];
static double B[N][N][N];

static void kernel_heat_3d(void)
{
    int t, i, j, k;
#pragma scop
    for (t = 1; t <= TSTEPS; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                for (k = 1; k < N - 1; k++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                               + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                               + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                               + A[i][j][k];
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                for (k = 1; k < N - 1; k++)
                    A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                               + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                               + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                               + B[i][j][k];
    }
#pragma endscop
}

int main(void)
{
    lx_seed(114);
    lx_fill_double(&A[0][0][0], (size_t)N * N * N);
    lx_fill_double(&B[0][0][0], (size_t)N * N * N);
    kernel_heat_3d();
    lx_dump("A", A, sizeof A);
    lx_dump("B", B, sizeof B);
    return 0;
}
