// expect: 14:13 return
/* return inside the region. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++) {
        A[i] = 1.0;
        if (i == 8)
            return;
    }
#pragma endscop
}
