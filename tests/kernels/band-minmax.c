// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* Min/max bounds through MIN/MAX macros: a hand-strip-mined i loop (ii += 8, partial last
 * strip when N % 8 != 0) and a band of width 7 clipped to [0, M-1]; rows with i > M+2 have
 * an empty j range. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static double A[N][M];
static double B[N][M];
static double c[M];

static void kernel_band_minmax(void)
{
    int ii, i, j;
#pragma scop
    for (ii = 0; ii < N; ii += 8)
        for (i = ii; i < MIN(ii + 8, N); i++)
            for (j = MAX(i - 3, 0); j <= MIN(i + 3, M - 1); j++)
                B[i][j] = B[i][j] + A[i][j] * c[j];
#pragma endscop
}

int main(void)
{
    lx_seed(128);
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(&B[0][0], (size_t)N * M);
    lx_fill_double(c, M);
    kernel_band_minmax();
    lx_dump("B", B, sizeof B);
    return 0;
}
