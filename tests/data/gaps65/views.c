void smooth(int n, double *x, double *b) {
    int i;
    double *xl = x - 1;
    double *xr = x + 1;
    for (i = 1; i < n - 1; i++)
        b[i] = xl[i] + xr[i];
}
