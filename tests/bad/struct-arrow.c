// expect: 17:16 struct
/* A struct member read through a pointer with `->`. */
#define N 16

struct point {
    double x;
    double y;
};

static double A[N];

void kernel(const struct point *p)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = p->x + 1.0;
#pragma endscop
}
