// sizes: NI=32 NJ=16 NK=48 NL=24 NM=40 | NI=37 NJ=41 NK=43 NL=47 NM=53
// region: chill
/* 3mm (PolyBench 4.2): G = (A*B) * (C*D) through E and F; Orio CHiLL marker. */
#include "harness.h"

#ifndef NI
#define NI 32
#endif
#ifndef NJ
#define NJ 16
#endif
#ifndef NK
#define NK 48
#endif
#ifndef NL
#define NL 24
#endif
#ifndef NM
#define NM 40
#endif

static double E[NI][NJ];
static double A[NI][NK];
static double B[NK][NJ];
static double F[NJ][NL];
static double C[NJ][NM];
static double D[NM][NL];
static double G[NI][NL];

static void kernel_3mm(void)
{
    int i, j, k;
/*@ begin CHiLL ( ) @*/
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++) {
            E[i][j] = 0.0;
            for (k = 0; k < NK; ++k)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (i = 0; i < NJ; i++)
        for (j = 0; j < NL; j++) {
            F[i][j] = 0.0;
            for (k = 0; k < NM; ++k)
                F[i][j] += C[i][k] * D[k][j];
        }
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++) {
            G[i][j] = 0.0;
            for (k = 0; k < NJ; ++k)
                G[i][j] += E[i][k] * F[k][j];
        }
/*@ end @*/
}

int main(void)
{
    lx_seed(103);
    lx_fill_double(&E[0][0], (size_t)NI * NJ);
    lx_fill_double(&A[0][0], (size_t)NI * NK);
    lx_fill_double(&B[0][0], (size_t)NK * NJ);
    lx_fill_double(&F[0][0], (size_t)NJ * NL);
    lx_fill_double(&C[0][0], (size_t)NJ * NM);
    lx_fill_double(&D[0][0], (size_t)NM * NL);
    lx_fill_double(&G[0][0], (size_t)NI * NL);
    kernel_3mm();
    lx_dump("E", E, sizeof E);
    lx_dump("F", F, sizeof F);
    lx_dump("G", G, sizeof G);
    return 0;
}
