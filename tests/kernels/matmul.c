// sizes: NI=32 NJ=48 NK=64 | NI=37 NJ=41 NK=43
// region: pragma
/* matmul: C += A * B, accumulating into a random C (i, j, k order). */
#include "harness.h"

#ifndef NI
#define NI 32
#endif
#ifndef NJ
#define NJ 48
#endif
#ifndef NK
#define NK 64
#endif

static double A[NI][NK];
static double B[NK][NJ];
static double C[NI][NJ];

static void kernel_matmul(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            for (k = 0; k < NK; k++)
                C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
    lx_seed(101);
    lx_fill_double(&A[0][0], (size_t)NI * NK);
    lx_fill_double(&B[0][0], (size_t)NK * NJ);
    lx_fill_double(&C[0][0], (size_t)NI * NJ);
    kernel_matmul();
    lx_dump("C", C, sizeof C);
    return 0;
}
