// sizes: P4=8 P5=8 P6=8 H1=8 H2=8 H3=16 H7=16 | P4=5 P5=7 P6=9 H1=7 H2=5 H3=9 H7=11
// region: pragma
/* NWChem CCSD(T) sd_t_d1_1, row-major spec (nwchem_sd_t.yaml):
 *   t3[p4,p5,p6,h1,h2,h3] -= t2[h1,p5,p4,h7] * v2[h7,p6,h2,h3]
 * loops p4 p5 p6 h1 h2 h3 h7 (contracted h7 innermost), with LINEARIZED 1-D arrays:
 * subscripts are Horner forms in the per-index size macros. */
#include "harness.h"

#ifndef P4
#define P4 8
#endif
#ifndef P5
#define P5 8
#endif
#ifndef P6
#define P6 8
#endif
#ifndef H1
#define H1 8
#endif
#ifndef H2
#define H2 8
#endif
#ifndef H3
#define H3 16
#endif
#ifndef H7
#define H7 16
#endif

static double t3[P4 * P5 * P6 * H1 * H2 * H3];
static double t2[H1 * P5 * P4 * H7];
static double v2[H7 * P6 * H2 * H3];

static void sd_t_d1_1(void)
{
    int p4, p5, p6, h1, h2, h3, h7;
#pragma scop
    for (p4 = 0; p4 < P4; p4++)
        for (p5 = 0; p5 < P5; p5++)
            for (p6 = 0; p6 < P6; p6++)
                for (h1 = 0; h1 < H1; h1++)
                    for (h2 = 0; h2 < H2; h2++)
                        for (h3 = 0; h3 < H3; h3++)
                            for (h7 = 0; h7 < H7; h7++)
                                t3[((((p4 * P5 + p5) * P6 + p6) * H1 + h1) * H2 + h2) * H3 + h3] -=
                                    t2[((h1 * P5 + p5) * P4 + p4) * H7 + h7]
                                    * v2[((h7 * P6 + p6) * H2 + h2) * H3 + h3];
#pragma endscop
}

int main(void)
{
    lx_seed(122);
    lx_fill_double(t3, (size_t)P4 * P5 * P6 * H1 * H2 * H3);
    lx_fill_double(t2, (size_t)H1 * P5 * P4 * H7);
    lx_fill_double(v2, (size_t)H7 * P6 * H2 * H3);
    sd_t_d1_1();
    lx_dump("t3", t3, sizeof t3);
    return 0;
}
