// expect: 14:13 condition
/* An `if` that tests array data and holds a loop: the loop's trip count depends on the data,
   which no conditional assignment expresses. */
#define N 16

static double A[N];
static double B[N][N];

void kernel(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++)
        if (A[i] > 0.0) {
            for (j = 0; j < N; j++)
                B[i][j] = 1.0;
        }
#pragma endscop
}
