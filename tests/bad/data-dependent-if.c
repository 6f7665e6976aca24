// expect: 13:13 condition
/* An `if` that tests array data: control flow depends on values, not on iterators. */
#define N 16

static double A[N];
static double B[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        if (A[i] > 0.0)
            B[i] = A[i];
#pragma endscop
}
