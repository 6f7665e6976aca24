// sizes: N=64 | N=53
// region: pragma
/* gemver (PolyBench 4.2): rank-2 update of A, then x = x + beta*A^T*y + z, w = w + alpha*A*x.
 * PolyBench style: size and arrays are function parameters. */
#include "harness.h"

#ifndef N
#define N 64
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_A[N][N];
static double g_u1[N];
static double g_v1[N];
static double g_u2[N];
static double g_v2[N];
static double g_w[N];
static double g_x[N];
static double g_y[N];
static double g_z[N];

static void kernel_gemver(int n, double alpha, double beta, double A[n][n],
                          double u1[n], double v1[n], double u2[n], double v2[n],
                          double w[n], double x[n], double y[n], double z[n])
{
    int i, j;
#pragma scop
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];
    for (i = 0; i < n; i++)
        x[i] = x[i] + z[i];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

int main(void)
{
    double alpha, beta;
    lx_seed(106);
    alpha = lx_rand();
    beta = lx_rand();
    lx_fill_double(&g_A[0][0], (size_t)N * N);
    lx_fill_double(g_u1, N);
    lx_fill_double(g_v1, N);
    lx_fill_double(g_u2, N);
    lx_fill_double(g_v2, N);
    lx_fill_double(g_w, N);
    lx_fill_double(g_x, N);
    lx_fill_double(g_y, N);
    lx_fill_double(g_z, N);
    kernel_gemver(N, alpha, beta, g_A, g_u1, g_v1, g_u2, g_v2, g_w, g_x, g_y, g_z);
    lx_dump("A", g_A, sizeof g_A);
    lx_dump("x", g_x, sizeof g_x);
    lx_dump("w", g_w, sizeof g_w);
    return 0;
}
