// expect: 14:9 call
/* A call with a side effect (output). */
#include <stdio.h>
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++) {
        A[i] = 2.0 * A[i];
        printf("%f\n", A[i]);
    }
#pragma endscop
}
