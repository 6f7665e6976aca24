// expect: 13:9 while
/* A while loop inside the region. */
#define N 16

static double A[N];

void kernel(void)
{
    int i, j;
#pragma scop
    for (i = 0; i < N; i++) {
        j = 0;
        while (j < i) {
            A[j] += 1.0;
            j = j + 1;
        }
    }
#pragma endscop
}
