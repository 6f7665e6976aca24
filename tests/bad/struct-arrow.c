// expect: 15:16 struct
/* A struct member read through a pointer to a struct the file does not define: its type is
   unknown, so looptx cannot read it before the region. */
#define N 16

struct point;

static double A[N];

void kernel(const struct point *p)
{
    int i;
#pragma scop
    for (i = 0; i < N; i++)
        A[i] = p->x + 1.0;
#pragma endscop
}
