// expect: 14:13 condition
/* An `if` that tests array data and whose branch changes that data before its last statement:
   not a conditional assignment either. */
#define N 16

static double A[N];
static double B[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        if (A[i] > 0.0) {
            A[i] = 0.0;
            B[i] = 1.0;
        }
#pragma endscop
}
