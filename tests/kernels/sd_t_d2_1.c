// sizes: P4=8 P5=8 P6=16 H1=8 H2=8 H3=8 P7=16 | P4=5 P5=7 P6=9 H1=11 H2=7 H3=5 P7=9
// region: pragma
/* NWChem CCSD(T) sd_t_d2_1, row-major spec (nwchem_sd_t.yaml):
 *   t3[p4,p5,p6,h1,h2,h3] -= t2[h2,h1,p4,p7] * v2[p5,p6,h3,p7]
 * loops p4 p5 p6 h1 h2 h3 p7 (contracted p7 innermost), multi-dimensional arrays. */
#include "harness.h"

#ifndef P4
#define P4 8
#endif
#ifndef P5
#define P5 8
#endif
#ifndef P6
#define P6 16
#endif
#ifndef H1
#define H1 8
#endif
#ifndef H2
#define H2 8
#endif
#ifndef H3
#define H3 8
#endif
#ifndef P7
#define P7 16
#endif

static double t3[P4][P5][P6][H1][H2][H3];
static double t2[H2][H1][P4][P7];
static double v2[P5][P6][H3][P7];

static void sd_t_d2_1(void)
{
    int p4, p5, p6, h1, h2, h3, p7;
#pragma scop
    for (p4 = 0; p4 < P4; p4++)
        for (p5 = 0; p5 < P5; p5++)
            for (p6 = 0; p6 < P6; p6++)
                for (h1 = 0; h1 < H1; h1++)
                    for (h2 = 0; h2 < H2; h2++)
                        for (h3 = 0; h3 < H3; h3++)
                            for (p7 = 0; p7 < P7; p7++)
                                t3[p4][p5][p6][h1][h2][h3] -= t2[h2][h1][p4][p7] * v2[p5][p6][h3][p7];
#pragma endscop
}

int main(void)
{
    lx_seed(123);
    lx_fill_double(&t3[0][0][0][0][0][0], (size_t)P4 * P5 * P6 * H1 * H2 * H3);
    lx_fill_double(&t2[0][0][0][0], (size_t)H2 * H1 * P4 * P7);
    lx_fill_double(&v2[0][0][0][0], (size_t)P5 * P6 * H3 * P7);
    sd_t_d2_1();
    lx_dump("t3", t3, sizeof t3);
    return 0;
}
