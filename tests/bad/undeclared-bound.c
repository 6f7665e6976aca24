// expect: 11:21 undeclared
/* A loop bound names an identifier declared nowhere (typo for N). */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < NN; i++)
        A[i] = 1.0;
#pragma endscop
}
