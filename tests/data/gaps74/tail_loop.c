/* SIZES: n=7,i0=2;n=33,i0=0;n=5,i0=9 */
void tail(int n, int i0, double *a)
{
    int i = i0;
#pragma scop
    for (; i < n; i++)
        a[i] = 2.0 * a[i];
#pragma endscop
}
