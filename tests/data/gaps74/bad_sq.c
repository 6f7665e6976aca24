
void sq(int n, double *a, const double *b)
{
    int i;
#pragma scop
    for (i = 0; i < n; i++)
        a[i*i] = b[i];
#pragma endscop
}
