// expect: 13:17 non-affine
/* An `if` whose condition multiplies two iterators. */
#define N 16

static double A[N][N];

void kernel(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            if (i * j > 4)
                A[i][j] = 0.5;
#pragma endscop
}
