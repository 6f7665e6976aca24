void autocorr(int n, int m, double *x, double *y)
{
    int i, lag;
    double acc;
    for (lag = 0; lag < m; lag += 2) {
        acc = 0;
        for (i = 0; i < n - lag; i++)
            acc += x[i] * x[i + lag];
        y[lag] = acc;
    }
}
