#include <stdio.h>
#include <stdlib.h>
#ifndef IDX
#define IDX(i, j) ((i) * m + (j))
#endif
void kern(int n, int m, double *restrict y)
{
    int i, j;
#pragma scop
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[IDX(i, j)] = 10 * i + j;
#pragma endscop
}
int main(void)
{
    double y[6];
    kern(2, 3, y);
    for (int k = 0; k < 6; k++) printf("%g ", y[k]);
    printf("\n");
    return 0;
}
