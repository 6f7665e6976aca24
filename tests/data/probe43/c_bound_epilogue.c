/* the same with a C-style bound temporary declared in the outer loop's body */
int zero2(double *c, int m, int n, int ld)
{
    int i, j;
    for (j = 0; j < n; ++j) {
	int lim = m;
	for (i = 0; i < lim; ++i)
	    c[i + j * ld] = 0.;
    }
    return i * 1000 + j;
}
