// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* Negative-step loops: a backward recurrence, back substitution with an upper-triangular U
 * (i descending, j ascending from i+1), and a row update that runs j downwards so each
 * A[i][j-1] it reads is still the old value. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

static double x[N];
static double b[N];
static double y[N];
static double U[N][N];
static double A[N][M];

static void kernel_reverse(void)
{
    int i, j;
#pragma scop
    for (i = N - 2; i >= 0; i--)
        x[i] = x[i + 1] * 0.5 + b[i];
    for (i = N - 1; i >= 0; i--) {
        for (j = i + 1; j < N; j++)
            y[i] -= U[i][j] * y[j];
        y[i] /= U[i][i];
    }
    for (i = 0; i < N; i++)
        for (j = M - 1; j > 0; --j)
            A[i][j] = A[i][j - 1] + 0.25 * A[i][j];
#pragma endscop
}

int main(void)
{
    int i;
    lx_seed(125);
    lx_fill_double(x, N);
    lx_fill_double(b, N);
    lx_fill_double(y, N);
    lx_fill_double(&U[0][0], (size_t)N * N);
    lx_fill_double(&A[0][0], (size_t)N * M);
    for (i = 0; i < N; i++)
        U[i][i] += 2.0 * N;
    kernel_reverse();
    lx_dump("x", x, sizeof x);
    lx_dump("y", y, sizeof y);
    lx_dump("A", A, sizeof A);
    return 0;
}
