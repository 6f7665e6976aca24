// expect: 12:28 step
/* The step of the j loop is the outer iterator k, not a constant. */
#define N 16

static double A[N];

void kernel(void)
{
    int k, j;
#pragma scop
    for (k = 1; k < 4; k++)
        for (j = 0; j < N; j += k)
            A[j] += 1.0;
#pragma endscop
}
