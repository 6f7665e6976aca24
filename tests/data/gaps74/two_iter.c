
void reverse_arr(int n, double *a)
{
    int i, j;
    double t;
#pragma scop
    for (i = 0, j = n - 1; i < j; i++, j--) {
        t = a[i]; a[i] = a[j]; a[j] = t;
    }
#pragma endscop
}
