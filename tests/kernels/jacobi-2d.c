// sizes: TSTEPS=8 N=32 | TSTEPS=5 N=37
// region: pragma
/* jacobi-2d (PolyBench 4.2): 5-point stencil, time loop, A and B ping-pong. */
#include "harness.h"

#ifndef TSTEPS
#define TSTEPS 8
#endif
#ifndef N
#define N 32
#endif

static double A[N][N];
static double B[N][N];

static void kernel_jacobi_2d(void)
{
    int t, i, j;
#pragma scop
    for (t = 0; t < TSTEPS; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
#pragma endscop
}

int main(void)
{
    lx_seed(111);
    lx_fill_double(&A[0][0], (size_t)N * N);
    lx_fill_double(&B[0][0], (size_t)N * N);
    kernel_jacobi_2d();
    lx_dump("A", A, sizeof A);
    lx_dump("B", B, sizeof B);
    return 0;
}
