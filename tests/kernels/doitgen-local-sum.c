// sizes: NR=5 NQ=6 NP=32 | NR=3 NQ=7 NP=17
// region: chill
/* doitgen as PolyBench writes it, in place through sum[p], with sum a local of the kernel:
 * privatizing the array at q frees the (r, q) loops (an element of another iteration is in
 * the way only where it is the same element). */
#include "harness.h"

#ifndef NR
#define NR 5
#endif
#ifndef NQ
#define NQ 6
#endif
#ifndef NP
#define NP 32
#endif

static double A[NR][NQ][NP];
static double C4[NP][NP];

static void kernel_doitgen_local_sum(void)
{
    int r, q, p, s;
    double sum[NP];
/*@ begin CHiLL ( ) @*/
    for (r = 0; r < NR; r++)
        for (q = 0; q < NQ; q++) {
            for (p = 0; p < NP; p++) {
                sum[p] = 0.0;
                for (s = 0; s < NP; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < NP; p++)
                A[r][q][p] = sum[p];
        }
/*@ end @*/
}

int main(void)
{
    lx_seed(127);
    lx_fill_double(&A[0][0][0], (size_t)NR * NQ * NP);
    lx_fill_double(&C4[0][0], (size_t)NP * NP);
    kernel_doitgen_local_sum();
    lx_dump("A", A, sizeof A);
    return 0;
}
