// sizes: N=32 | N=37
// region: pragma
/* lu (PolyBench 4.2): in-place LU without pivoting; non-rectangular (j < i, k < j, k < i).
 * Function-parameter style. main makes A diagonally dominant so no pivot is tiny. */
#include "harness.h"

#ifndef N
#define N 32
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_A[N][N];

static void kernel_lu(int n, double A[n][n])
{
    int i, j, k;
#pragma scop
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (j = i; j < n; j++)
            for (k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
#pragma endscop
}

int main(void)
{
    int i;
    lx_seed(115);
    lx_fill_double(&g_A[0][0], (size_t)N * N);
    for (i = 0; i < N; i++)
        g_A[i][i] += 2.0 * N;
    kernel_lu(N, g_A);
    lx_dump("A", g_A, sizeof g_A);
    return 0;
}
