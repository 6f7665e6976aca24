// expect: 11:17 condition
/* The loop condition tests j, not the loop's iterator i. */
#define N 16

static double A[N];

void kernel(int j)
{
    int i;
#pragma scop
    for (i = 0; j < N; i++)
        A[i] = 1.0;
#pragma endscop
}
