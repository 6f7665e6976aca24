// sizes: N=32 | N=37
// region: chill
/* Banded matrix-vector product with min/max bounds written as ternaries:
 * j runs over [max(i-4, 0), min(i+8, N)). */
#include "harness.h"

#ifndef N
#define N 32
#endif

static double A[N][N];
static double x[N];
static double y[N];

static void kernel_band_ternary(void)
{
    int i, j;
/*@ begin CHiLL ( ) @*/
    for (i = 0; i < N; i++)
        for (j = (i - 4 > 0 ? i - 4 : 0); j < (i + 8 < N ? i + 8 : N); j++)
            y[i] += A[i][j] * x[j];
/*@ end @*/
}

int main(void)
{
    lx_seed(127);
    lx_fill_double(&A[0][0], (size_t)N * N);
    lx_fill_double(x, N);
    lx_fill_double(y, N);
    kernel_band_ternary();
    lx_dump("y", y, sizeof y);
    return 0;
}
