// expect: 12:16 pointer
/* Pointer arithmetic and dereference instead of an array subscript. */
#define N 16

static double B[N];

void kernel(double *p)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        B[i] = *(p + i);
#pragma endscop
}
