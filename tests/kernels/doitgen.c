// sizes: NR=16 NQ=8 NP=32 | NR=11 NQ=13 NP=17
// region: pragma
/* doitgen (PolyBench 4.2): A[r][q][:] = A[r][q][:] * C4, in place through the array sum[p].
 * Function-parameter style. */
#include "harness.h"

#ifndef NR
#define NR 16
#endif
#ifndef NQ
#define NQ 8
#endif
#ifndef NP
#define NP 32
#endif

/* Storage is named g_*, so the kernel's array parameters shadow no global. */
static double g_A[NR][NQ][NP];
static double g_C4[NP][NP];
static double g_sum[NP];

static void kernel_doitgen(int nr, int nq, int np, double A[nr][nq][np], double C4[np][np],
                           double sum[np])
{
    int r, q, p, s;
#pragma scop
    for (r = 0; r < nr; r++)
        for (q = 0; q < nq; q++) {
            for (p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
#pragma endscop
}

int main(void)
{
    lx_seed(118);
    lx_fill_double(&g_A[0][0][0], (size_t)NR * NQ * NP);
    lx_fill_double(&g_C4[0][0], (size_t)NP * NP);
    lx_fill_double(g_sum, NP);
    kernel_doitgen(NR, NQ, NP, g_A, g_C4, g_sum);
    lx_dump("A", g_A, sizeof g_A);
    lx_dump("sum", g_sum, sizeof g_sum);
    return 0;
}
