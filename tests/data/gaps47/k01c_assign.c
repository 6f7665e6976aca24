/* These have been separated out from ccsd_t_singles_l.F and ccsd_t_doubles_l.F
 * and converted from Fortran 77 to C99 by hand. */
/* from jeffhammond/nwchem-tce-triples-kernels src/ccsd_t_kernels_c99.c, c99_sd_t_d1_1_ */

#include "ccsd_t_kernels.h"

void c99_sd_t_d1_1_(fint * h3d, fint * h2d, fint * h1d,
                    fint * p6d, fint * p5d, fint * p4d,
                    fint * h7d,
                    double * restrict t3, const double * restrict t2, const double * restrict v2)
{
    int h1u; h1u = *h1d;
    int h2u; h2u = *h2d;
    int h3u; h3u = *h3d;
    int p4u; p4u = *p4d;
    int p5u; p5u = *p5d;
    int p6u; p6u = *p6d;
    int h7u; h7u = *h7d;
    for (int p4=0; p4<p4u; p4++)
    for (int p5=0; p5<p5u; p5++)
    for (int p6=0; p6<p6u; p6++)
    for (int h1=0; h1<h1u; h1++)
    for (int h2=0; h2<h2u; h2++)
    for (int h3=0; h3<h3u; h3++)
    for (int h7=0; h7<h7u; h7++)
    //t3(h3,h2,h1,p6,p5,p4)-=t2(h7,p4,p5,h1)*v2(h3,h2,p6,h7);
    t3[h3+h3u*(h2+h2u*(h1+h1u*(p6+p6u*(p5+p5u*p4))))] -= t2[h7+h7u*(p4+p4u*(p5+p5u*h1))] * v2[h3+h3u*(h2+h2u*(p6+p6u*h7))];
    return;
}
