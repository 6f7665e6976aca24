// expect: 19:16 struct
/* A struct member read through a subscript inside the member chain (`s.p[0].x`): looptx
   hoists only chains of members of a variable (g->n, s.len), so this one is refused. */
#define N 16

struct point {
    double x;
    double y;
};

static struct { struct point p[4]; } s;
static double A[N];

void kernel(void)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = s.p[0].x * 2.0;
#pragma endscop
}
