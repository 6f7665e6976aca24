// expect: 13:9 non-affine
/* Indirect (gathered) subscript: the index is read from memory. */
#define N 16

static double A[N];
static int idx[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[idx[i]] += 1.0;
#pragma endscop
}
