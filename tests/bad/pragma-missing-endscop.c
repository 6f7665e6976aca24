// expect: 10:1 end
/* #pragma scop with no #pragma endscop. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = 1.0;
}
