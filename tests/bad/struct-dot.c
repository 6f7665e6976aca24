// expect: 18:16 struct
/* A struct member read with `.`. */
#define N 16

struct point {
    double x;
    double y;
};

static struct point s;
static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = s.x * 2.0;
#pragma endscop
}
