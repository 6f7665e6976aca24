// sizes: N=32 M=24 | N=37 M=41
// region: pragma
/* float and int arrays in one region: a float update, an int update (values stay small, no
 * overflow), and a float statement reading the int array (int -> float conversion). */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 24
#endif

static float F[N][M];
static float G[M][N];
static int K[N][M];
static int W[M];

static void kernel_mixed_types(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            F[i][j] = F[i][j] * 0.5f + G[j][i];
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            K[i][j] = K[i][j] * 3 + W[j] - i;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            F[i][j] += K[i][j] * 0.25f;
#pragma endscop
}

int main(void)
{
    lx_seed(129);
    lx_fill_float(&F[0][0], (size_t)N * M);
    lx_fill_float(&G[0][0], (size_t)M * N);
    lx_fill_int(&K[0][0], (size_t)N * M);
    lx_fill_int(W, M);
    kernel_mixed_types();
    lx_dump("F", F, sizeof F);
    lx_dump("K", K, sizeof K);
    return 0;
}
