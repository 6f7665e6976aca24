// expect: 13:16 call
/* A call that reads and updates hidden state. */
#include <stdlib.h>
#define N 16

static int A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = rand();
#pragma endscop
}
