// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* Non-unit constant steps: i += 2 with j += 3, i -= 2 downwards, and k += 4 from an odd
 * start; the trip counts are not multiples of the step at the odd size set. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

static double A[N][M];
static double B[N + 1][M];
static double x[N];
static double y[N];

static void kernel_stride(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < N; i += 2)
        for (j = 1; j < M; j += 3)
            A[i][j] = A[i][j - 1] + B[i + 1][j];
    for (i = N - 1; i >= 1; i -= 2)
        x[i] = x[i - 1] * 0.5 + x[i];
    for (k = 3; k <= N - 2; k += 4)
        y[k] = y[k - 2] + y[k + 1];
#pragma endscop
}

int main(void)
{
    lx_seed(130);
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(&B[0][0], (size_t)(N + 1) * M);
    lx_fill_double(x, N);
    lx_fill_double(y, N);
    kernel_stride();
    lx_dump("A", A, sizeof A);
    lx_dump("x", x, sizeof x);
    lx_dump("y", y, sizeof y);
    return 0;
}
