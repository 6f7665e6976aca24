// sizes: N=32 M=48 | N=37 M=41
// region: pragma
/* y = alpha*A*x + y through a scalar accumulator `acc`, reset per row: the scalar is a
 * memory location like any other, so it carries dependences between rows. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 48
#endif

static double alpha;
static double A[N][M];
static double x[M];
static double y[N];

static void kernel_gemv_scalar(void)
{
    int i, j;
    double acc;
#pragma scop
    for (i = 0; i < N; i++) {
        acc = 0.0;
        for (j = 0; j < M; j++)
            acc += A[i][j] * x[j];
        y[i] = alpha * acc + y[i];
    }
#pragma endscop
}

int main(void)
{
    lx_seed(132);
    alpha = lx_rand();
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(x, M);
    lx_fill_double(y, N);
    kernel_gemv_scalar();
    lx_dump("y", y, sizeof y);
    return 0;
}
