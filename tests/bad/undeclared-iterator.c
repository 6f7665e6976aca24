// expect: 7:10 undeclared
/* A loop iterator that is declared nowhere: the output would not compile. */
void f(int n, double *a)
{
#pragma scop
    /* i is not declared */
    for (i = 0; i < n; i++)
        a[i] = 2.0 * a[i];
#pragma endscop
}
