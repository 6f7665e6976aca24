// expect: 13:11 increment
/* A side-effecting increment inside an expression (the subscript). */
#define N 16

static double A[N];
static double B[N];

void kernel(void)
{
    int i = 0, j;
#pragma scop
    for (j = 0; j < N; j++)
        A[i++] = B[j];
#pragma endscop
}
