// sizes: M=32 N=48 | M=37 N=41
// region: pragma
/* atax (PolyBench 4.2): y = A^T * (A * x), tmp holding A*x. Function-parameter style. */
#include "harness.h"

#ifndef M
#define M 32
#endif
#ifndef N
#define N 48
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_A[M][N];
static double g_x[N];
static double g_y[N];
static double g_tmp[M];

static void kernel_atax(int m, int n, double A[m][n], double x[n], double y[n], double tmp[m])
{
    int i, j;
#pragma scop
    for (i = 0; i < n; i++)
        y[i] = 0;
    for (i = 0; i < m; i++) {
        tmp[i] = 0.0;
        for (j = 0; j < n; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < n; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
#pragma endscop
}

int main(void)
{
    lx_seed(107);
    lx_fill_double(&g_A[0][0], (size_t)M * N);
    lx_fill_double(g_x, N);
    lx_fill_double(g_y, N);
    lx_fill_double(g_tmp, M);
    kernel_atax(M, N, g_A, g_x, g_y, g_tmp);
    lx_dump("y", g_y, sizeof g_y);
    lx_dump("tmp", g_tmp, sizeof g_tmp);
    return 0;
}
