// expect: 13:13 non-affine
/* A subscript that multiplies two iterators is not affine. */
#define N 16

static double A[N * N];

void kernel(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i * j] = 1.0;
#pragma endscop
}
