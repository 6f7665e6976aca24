// sizes: N=64 | N=53
// region: chill
/* mvt (PolyBench 4.2): x1 += A * y_1 and x2 += A^T * y_2. */
#include "harness.h"

#ifndef N
#define N 64
#endif

static double A[N][N];
static double x1[N];
static double x2[N];
static double y_1[N];
static double y_2[N];

static void kernel_mvt(void)
{
    int i, j;
/*@ begin CHiLL ( ) @*/
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
/*@ end @*/
}

int main(void)
{
    lx_seed(109);
    lx_fill_double(&A[0][0], (size_t)N * N);
    lx_fill_double(x1, N);
    lx_fill_double(x2, N);
    lx_fill_double(y_1, N);
    lx_fill_double(y_2, N);
    kernel_mvt();
    lx_dump("x1", x1, sizeof x1);
    lx_dump("x2", x2, sizeof x2);
    return 0;
}
