// expect: 13:20 syntax
/* Malformed C: an operator is missing between two operands. */
#define N 16

static double A[N];
static double B[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = B[i] 2.0;
#pragma endscop
}
