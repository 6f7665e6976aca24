// sizes: T=8 N=64 | T=7 N=53
// region: pragma
/* In-place 1-D Gauss-Seidel sweep with a time loop: distances (0,1), (1,0), (1,-1). Rectangular
 * tiles of (t, i) are illegal; skewing i by t makes them legal. */
#include "harness.h"

#ifndef T
#define T 8
#endif
#ifndef N
#define N 64
#endif

static double A[N];

static void kernel_seidel_1d(void)
{
    int t, i;
#pragma scop
    for (t = 0; t < T; t++)
        for (i = 1; i < N - 1; i++)
            A[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
#pragma endscop
}

int main(void)
{
    lx_seed(31);
    lx_fill_double(A, (size_t)N);
    kernel_seidel_1d();
    lx_dump("A", A, sizeof A);
    return 0;
}
