typedef int integer;
typedef double doublereal;

int addmat_(doublereal *c__, doublereal *a, integer *n, integer *m, integer *ldc)
{
    integer c_dim1, c_offset, i__1, i__2;
    static integer i__, j;
    c_dim1 = *ldc;
    c_offset = 1 + c_dim1;
    c__ -= c_offset;
    --a;
    i__1 = *m;
    i__2 = *n;
#pragma scop
    for (j = 1; j <= i__1; ++j) {
	for (i__ = 1; i__ <= i__2; ++i__) {
	    c__[i__ + j * c_dim1] += a[i__];
	}
    }
#pragma endscop
    return 0;
}
