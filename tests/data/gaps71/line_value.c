#include <stdio.h>
void kern(int n, int *restrict y)
{
    int i;
#pragma scop
#line 100
    for (i = 0; i < n; i++)
        y[i] = __LINE__;
#pragma endscop
}
int main(void)
{
    int y[3];
    kern(3, y);
    printf("%d %d %d\n", y[0], y[1], y[2]);
    return 0;
}
