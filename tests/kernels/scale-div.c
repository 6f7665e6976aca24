// sizes: N=32 M=24 | N=37 M=41
// region: function kernel_scale
/* `/=` and `*=` updates; sizes and arrays are function parameters, and the whole body of
 * kernel_scale is the region (no marker). The last loop rewrites s after B has read it. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_A[N][M];
static double g_B[N][M];
static double g_d[N];
static double g_s[M];

static void kernel_scale(int n, int m, double A[n][m], double B[n][m], double d[n], double s[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] /= d[i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            B[i][j] *= A[i][j] + s[j];
    for (int j = 0; j < m; j++) {
        s[j] *= 0.75;
        s[j] /= A[0][j];
    }
}

int main(void)
{
    lx_seed(131);
    lx_fill_double(&g_A[0][0], (size_t)N * M);
    lx_fill_double(&g_B[0][0], (size_t)N * M);
    lx_fill_double(g_d, N);
    lx_fill_double(g_s, M);
    kernel_scale(N, M, g_A, g_B, g_d, g_s);
    lx_dump("A", g_A, sizeof g_A);
    lx_dump("B", g_B, sizeof g_B);
    lx_dump("s", g_s, sizeof g_s);
    return 0;
}
