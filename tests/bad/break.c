// expect: 13:13 break
/* break leaves the loop early. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++) {
        if (i == 8)
            break;
        A[i] = 1.0;
    }
#pragma endscop
}
