// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* Affine `if` guards inside nests: if/else on i >= j, a conjunction, an equality, and a
 * guard around a 1-D recurrence; the last loop also uses a `!=` bound. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

static double A[N][M];
static double L[N][M];
static double U[N][M];
static double d[N];
static double x[N];

static void kernel_guarded(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            if (i >= j)
                L[i][j] = L[i][j] + A[i][j];
            else
                U[i][j] = U[i][j] * 0.5;
            if (i + j <= N - 1 && j > 0)
                A[i][j] = A[i][j - 1] + 1.0;
            if (i == j)
                d[i] = A[i][j] * 2.0;
        }
    for (i = 0; i != N; i++)
        if (i > 2 && i < N - 3)
            x[i] = x[i - 1] + x[i + 3];
#pragma endscop
}

int main(void)
{
    lx_seed(126);
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(&L[0][0], (size_t)N * M);
    lx_fill_double(&U[0][0], (size_t)N * M);
    lx_fill_double(d, N);
    lx_fill_double(x, N);
    kernel_guarded();
    lx_dump("A", A, sizeof A);
    lx_dump("L", L, sizeof L);
    lx_dump("U", U, sizeof U);
    lx_dump("d", d, sizeof d);
    lx_dump("x", x, sizeof x);
    return 0;
}
