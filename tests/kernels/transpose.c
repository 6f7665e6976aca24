// sizes: N=32 M=48 | N=37 M=41
// region: function transpose
/* Out-of-place transpose B = A^T. No marker: the whole body of transpose() is the region. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 48
#endif

static double A[N][M];
static double B[M][N];

static void transpose(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            B[j][i] = A[i][j];
}

int main(void)
{
    lx_seed(120);
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(&B[0][0], (size_t)M * N);
    transpose();
    lx_dump("B", B, sizeof B);
    return 0;
}
