// expect: 13:17 non-affine
/* An `if` whose condition multiplies two iterators, around a loop (no conditional assignment). */
#define N 16

static double A[N][N];

void kernel(void)
{
    int i, j, k;
#pragma scop
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            if (i * j > 4)
                for (k = 0; k < N; k++)
                    A[i][k] = 0.5;
#pragma endscop
}
