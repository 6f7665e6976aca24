
void reverse_arr(int n, double *a)
{
    int i, j;
    double t;
#pragma scop
    for (i = 0, j = n - 1; j > i; j--, i++) {
        t = a[i]; a[i] = a[j]; a[j] = t;
    }
#pragma endscop
}
