// sizes: N=32 | N=37
// region: pragma
/* Calls to pure math functions inside the region: sqrt, exp, fabs, fmax, fmin, pow. */
#include "harness.h"

#ifndef N
#define N 32
#endif

static double A[N][N];
static double B[N][N];
static double C[N][N];
static double x[N];

static void kernel_mathcalls(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            B[i][j] = sqrt(A[i][j]) + exp(-A[i][j]) + fabs(A[i][j] - 1.0);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            C[i][j] = fmax(A[i][j], B[j][i]) * fmin(A[i][j], x[j]) + pow(A[i][j], 1.5);
#pragma endscop
}

int main(void)
{
    lx_seed(133);
    lx_fill_double(&A[0][0], (size_t)N * N);
    lx_fill_double(&B[0][0], (size_t)N * N);
    lx_fill_double(&C[0][0], (size_t)N * N);
    lx_fill_double(x, N);
    kernel_mathcalls();
    lx_dump("B", B, sizeof B);
    lx_dump("C", C, sizeof C);
    return 0;
}
