
typedef double doublereal;
int f(int *m, int *n, doublereal *beta, doublereal *c__, int *ldc)
{
    int c_dim1, c_offset, i__1, i__2;
    int i__, j;
    c_dim1 = *ldc;
    c_offset = 1 + c_dim1;
    c__ -= c_offset;
    i__1 = *n;
#pragma scop
    for (j = 1; j <= i__1; ++j) {
	
	for (i__ = 1; i__ <= *m; ++i__) {
	    c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
	}
    }
#pragma endscop
    return 0;
}
