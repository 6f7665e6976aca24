// expect: 19:16 call
/* A call to a user function that reads a global: not a pure helper, so looptx cannot see what
   it reads. */
#define N 16

static double A[N];
static double offset = 1.0;

static double bump(double x)
{
    return x + offset;
}

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = bump(A[i]);
#pragma endscop
}
