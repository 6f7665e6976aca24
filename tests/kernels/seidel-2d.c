// sizes: TSTEPS=8 N=32 | TSTEPS=5 N=41
// region: pragma
/* seidel-2d (PolyBench 4.2): 9-point Gauss-Seidel, in place, time loop; `<=` bounds. */
#include "harness.h"

#ifndef TSTEPS
#define TSTEPS 8
#endif
#ifndef N
#define N 32
#endif

static double A[N][N];

static void kernel_seidel_2d(void)
{
    int t, i, j;
#pragma scop
    for (t = 0; t <= TSTEPS - 1; t++)
        for (i = 1; i <= N - 2; i++)
            for (j = 1; j <= N - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop
}

int main(void)
{
    lx_seed(112);
    lx_fill_double(&A[0][0], (size_t)N * N);
    kernel_seidel_2d();
    lx_dump("A", A, sizeof A);
    return 0;
}
