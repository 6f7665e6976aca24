// expect: 17:16 call
/* A call to a user function: looptx cannot see what it reads or writes. */
#define N 16

static double A[N];

static double bump(double x)
{
    return x + 1.0;
}

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = bump(A[i]);
#pragma endscop
}
