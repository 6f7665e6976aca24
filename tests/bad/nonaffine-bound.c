// expect: 11:17 non-affine
/* A loop bound that is quadratic in the iterator. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i * i < N; i++)
        A[i] = 1.0;
#pragma endscop
}
