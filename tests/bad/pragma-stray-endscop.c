// expect: 12:1 region
/* #pragma endscop with no #pragma scop before it. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
    for (i = 0; i < N; i++)
        A[i] = 1.0;
#pragma endscop
}
