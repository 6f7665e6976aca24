// sizes: N=32 | N=37
// region: pragma
/* cholesky (PolyBench 4.2): in-place, lower triangle, sqrt on the diagonal.
 * main makes A diagonally dominant, hence positive definite: every sqrt argument is > 0. */
#include "harness.h"

#ifndef N
#define N 32
#endif

static double A[N][N];

static void kernel_cholesky(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < N; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
#pragma endscop
}

int main(void)
{
    int i;
    lx_seed(116);
    lx_fill_double(&A[0][0], (size_t)N * N);
    for (i = 0; i < N; i++)
        A[i][i] += 2.0 * N;
    kernel_cholesky();
    lx_dump("A", A, sizeof A);
    return 0;
}
