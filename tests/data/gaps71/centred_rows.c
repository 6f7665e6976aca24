void kern(int n, int m, double *restrict y, const double *restrict a)
{
    int i, j;
#pragma scop
    for (i = 0; i < n; i++)
        for (j = -m; j < m; j++)
            y[i * (2 * m) + j + m] = a[i * (2 * m) + j + m] * 2.0;
#pragma endscop
}
