// sizes: NI=32 NJ=48 NK=16 NL=64 | NI=37 NJ=41 NK=43 NL=47
// region: pragma
/* 2mm (PolyBench 4.2): D = alpha*A*B*C + beta*D, through tmp. Sizes are function parameters. */
#include "harness.h"

#ifndef NI
#define NI 32
#endif
#ifndef NJ
#define NJ 48
#endif
#ifndef NK
#define NK 16
#endif
#ifndef NL
#define NL 64
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_tmp[NI][NJ];
static double g_A[NI][NK];
static double g_B[NK][NJ];
static double g_C[NJ][NL];
static double g_D[NI][NL];

static void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta,
                       double tmp[ni][nj], double A[ni][nk], double B[nk][nj],
                       double C[nj][nl], double D[ni][nl])
{
    int i, j, k;
#pragma scop
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i][j] = 0.0;
            for (k = 0; k < nk; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i][j] *= beta;
            for (k = 0; k < nj; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }
#pragma endscop
}

int main(void)
{
    double alpha, beta;
    lx_seed(102);
    alpha = lx_rand();
    beta = lx_rand();
    lx_fill_double(&g_tmp[0][0], (size_t)NI * NJ);
    lx_fill_double(&g_A[0][0], (size_t)NI * NK);
    lx_fill_double(&g_B[0][0], (size_t)NK * NJ);
    lx_fill_double(&g_C[0][0], (size_t)NJ * NL);
    lx_fill_double(&g_D[0][0], (size_t)NI * NL);
    kernel_2mm(NI, NJ, NK, NL, alpha, beta, g_tmp, g_A, g_B, g_C, g_D);
    lx_dump("tmp", g_tmp, sizeof g_tmp);
    lx_dump("D", g_D, sizeof g_D);
    return 0;
}
