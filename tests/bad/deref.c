// expect: 13:16 dereference
/* Reading through a pointer. */
#define N 16

static double A[N];
static double B[N];

void kernel(const double *p)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        B[i] = *p * A[i];
#pragma endscop
}
