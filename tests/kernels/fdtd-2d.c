// sizes: TMAX=8 NX=32 NY=24 | TMAX=5 NX=37 NY=41
// region: chill
/* fdtd-2d (PolyBench 4.2): 2-D finite-difference time domain, four statements per step. */
#include "harness.h"

#ifndef TMAX
#define TMAX 8
#endif
#ifndef NX
#define NX 32
#endif
#ifndef NY
#define NY 24
#endif

static double ex[NX][NY];
static double ey[NX][NY];
static double hz[NX][NY];
static double fict[TMAX];

static void kernel_fdtd_2d(void)
{
    int t, i, j;
/*@ begin CHiLL ( ) @*/
    for (t = 0; t < TMAX; t++) {
        for (j = 0; j < NY; j++)
            ey[0][j] = fict[t];
        for (i = 1; i < NX; i++)
            for (j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (i = 0; i < NX; i++)
            for (j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (i = 0; i < NX - 1; i++)
            for (j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
/*@ end @*/
}

int main(void)
{
    lx_seed(113);
    lx_fill_double(&ex[0][0], (size_t)NX * NY);
    lx_fill_double(&ey[0][0], (size_t)NX * NY);
    lx_fill_double(&hz[0][0], (size_t)NX * NY);
    lx_fill_double(fict, TMAX);
    kernel_fdtd_2d();
    lx_dump("ex", ex, sizeof ex);
    lx_dump("ey", ey, sizeof ey);
    lx_dump("hz", hz, sizeof hz);
    return 0;
}
