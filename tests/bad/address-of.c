// expect: 13:24 address
/* Taking the address of an array element. */
#define N 16

static double A[N];
static double B[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        B[i] = A[i] + (&A[i] - &A[0]);
#pragma endscop
}
