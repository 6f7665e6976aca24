/* Two sd_t_d1 kernels accumulated into ONE t3 (same triplesx), as NWChem's ccsd_t_doubles_l calls
 * sd_t_d1_1 then sd_t_d1_2 on the same triplesx (layouts from data/nwchem_sd_t.yaml; written by hand) */
void sd_t_d1_12(int h3u, int h2u, int h1u, int p6u, int p5u, int p4u, int h7u,
                double * restrict t3,
                const double * restrict t2, const double * restrict v2)
{
    for (int p4=0; p4<p4u; p4++)
    for (int p5=0; p5<p5u; p5++)
    for (int p6=0; p6<p6u; p6++)
    for (int h1=0; h1<h1u; h1++)
    for (int h2=0; h2<h2u; h2++)
    for (int h3=0; h3<h3u; h3++)
    for (int h7=0; h7<h7u; h7++)
    t3[h3+h3u*(h2+h2u*(h1+h1u*(p6+p6u*(p5+p5u*p4))))] -= t2[h7+h7u*(p4+p4u*(p5+p5u*h1))] * v2[h3+h3u*(h2+h2u*(p6+p6u*h7))];
    for (int p4=0; p4<p4u; p4++)
    for (int p5=0; p5<p5u; p5++)
    for (int p6=0; p6<p6u; p6++)
    for (int h2=0; h2<h2u; h2++)
    for (int h1=0; h1<h1u; h1++)
    for (int h3=0; h3<h3u; h3++)
    for (int h7=0; h7<h7u; h7++)
    t3[h3+h3u*(h1+h1u*(h2+h2u*(p6+p6u*(p5+p5u*p4))))] += t2[h7+h7u*(p4+p4u*(p5+p5u*h1))] * v2[h3+h3u*(h2+h2u*(p6+p6u*h7))];
}
