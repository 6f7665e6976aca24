// expect: 10:1 end
/* A CHiLL annotation whose closing end marker is missing. */
#define N 16

static double A[N];

void kernel(void)
{
    int i;
/*@ begin CHiLL ( ) @*/
    for (i = 0; i < N; i++)
        A[i] = 1.0;
}
