// expect: 13:9 iterator
/* The loop iterator is assigned in the loop body. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++) {
        A[i] = 1.0;
        i = i + 1;
    }
#pragma endscop
}
