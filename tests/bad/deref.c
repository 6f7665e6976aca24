// expect: 14:16 dereference
/* Reading through a dereference of a row (a plain *p or *(p + i) of a pointer is a subscript). */
#define N 16

static double A[N];
static double B[N];
static double R[N][N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        B[i] = *R[i] * A[i];
#pragma endscop
}
