// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* syrk (PolyBench 4.2): lower triangle of C = alpha*A*A^T + beta*C; triangular bounds j <= i. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

static double alpha;
static double beta;
static double A[N][M];
static double C[N][N];

static void kernel_syrk(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < N; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < M; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
#pragma endscop
}

int main(void)
{
    lx_seed(104);
    alpha = lx_rand();
    beta = lx_rand();
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(&C[0][0], (size_t)N * N);
    kernel_syrk();
    lx_dump("C", C, sizeof C);
    return 0;
}
