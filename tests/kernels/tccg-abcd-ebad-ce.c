// sizes: NA=16 NB=8 NC=24 ND=8 NE=16 | NA=7 NB=9 NC=11 ND=5 NE=13
// region: pragma
/* TCCG #5 abcd-ebad-ce, row-major spec (tccg.yaml):  C[d,c,b,a] = A[d,a,b,e] * B[e,c]
 * contracted e innermost; accumulates into a random C (COGENT-style +=). */
#include "harness.h"

#ifndef NA
#define NA 16
#endif
#ifndef NB
#define NB 8
#endif
#ifndef NC
#define NC 24
#endif
#ifndef ND
#define ND 8
#endif
#ifndef NE
#define NE 16
#endif

static double C[ND][NC][NB][NA];
static double A[ND][NA][NB][NE];
static double B[NE][NC];

static void tccg_abcd_ebad_ce(void)
{
    int a, b, c, d, e;
#pragma scop
    for (d = 0; d < ND; d++)
        for (c = 0; c < NC; c++)
            for (b = 0; b < NB; b++)
                for (a = 0; a < NA; a++)
                    for (e = 0; e < NE; e++)
                        C[d][c][b][a] += A[d][a][b][e] * B[e][c];
#pragma endscop
}

int main(void)
{
    lx_seed(124);
    lx_fill_double(&C[0][0][0][0], (size_t)ND * NC * NB * NA);
    lx_fill_double(&A[0][0][0][0], (size_t)ND * NA * NB * NE);
    lx_fill_double(&B[0][0], (size_t)NE * NC);
    tccg_abcd_ebad_ce();
    lx_dump("C", C, sizeof C);
    return 0;
}
