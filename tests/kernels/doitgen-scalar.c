// sizes: NR=16 NQ=8 NP=32 | NR=11 NQ=13 NP=17
// region: chill
/* doitgen with a scalar temporary: one `sum` reused by every (r, q, p). The reuse creates
 * WAR/WAW dependences on sum that forbid, e.g., moving s outside p; nothing privatizes it. */
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

static double A[NR][NQ][NP];
static double C4[NP][NP];
static double Out[NR][NQ][NP];

static void kernel_doitgen_scalar(void)
{
    int r, q, p, s;
    double sum;
/*@ begin CHiLL ( ) @*/
    for (r = 0; r < NR; r++)
        for (q = 0; q < NQ; q++)
            for (p = 0; p < NP; p++) {
                sum = 0.0;
                for (s = 0; s < NP; s++)
                    sum += A[r][q][s] * C4[s][p];
                Out[r][q][p] = sum;
            }
/*@ end @*/
}

int main(void)
{
    lx_seed(119);
    lx_fill_double(&A[0][0][0], (size_t)NR * NQ * NP);
    lx_fill_double(&C4[0][0], (size_t)NP * NP);
    lx_fill_double(&Out[0][0][0], (size_t)NR * NQ * NP);
    kernel_doitgen_scalar();
    lx_dump("Out", Out, sizeof Out);
    return 0;
}
