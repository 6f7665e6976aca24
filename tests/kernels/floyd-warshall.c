// sizes: N=32 | N=37
// region: pragma
/* floyd-warshall (PolyBench 4.2): int all-pairs shortest paths, in place, ternary min. */
#include "harness.h"

#ifndef N
#define N 32
#endif

static int path[N][N];

static void kernel_floyd_warshall(void)
{
    int i, j, k;
#pragma scop
    for (k = 0; k < N; k++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j]
                                 ? path[i][j]
                                 : path[i][k] + path[k][j];
#pragma endscop
}

int main(void)
{
    lx_seed(117);
    lx_fill_int_range(&path[0][0], (size_t)N * N, 1, 100);
    kernel_floyd_warshall();
    lx_dump("path", path, sizeof path);
    return 0;
}
