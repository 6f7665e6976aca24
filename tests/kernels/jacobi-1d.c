// sizes: TSTEPS=8 N=64 | TSTEPS=5 N=53
// region: pragma
/* jacobi-1d (PolyBench 4.2): 3-point stencil, time loop, A and B ping-pong. */
#include "harness.h"

#ifndef TSTEPS
#define TSTEPS 8
#endif
#ifndef N
#define N 64
#endif

static double A[N];
static double B[N];

static void kernel_jacobi_1d(void)
{
    int t, i;
#pragma scop
    for (t = 0; t < TSTEPS; t++) {
        for (i = 1; i < N - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
        for (i = 1; i < N - 1; i++)
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
    }
#pragma endscop
}

int main(void)
{
    lx_seed(110);
    lx_fill_double(A, N);
    lx_fill_double(B, N);
    kernel_jacobi_1d();
    lx_dump("A", A, sizeof A);
    lx_dump("B", B, sizeof B);
    return 0;
}
