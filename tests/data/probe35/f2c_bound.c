typedef int integer;
typedef double doublereal;
int f(integer *m, integer *n, doublereal *beta, doublereal *c__, integer *ldc)
{
    integer c_dim1, c_offset, i__1, i__2;
    integer i__, j;
    c_dim1 = *ldc;
    c_offset = 1 + c_dim1;
    c__ -= c_offset;
    i__1 = *n;
#pragma scop
    for (j = 1; j <= i__1; ++j) {
	i__2 = *m;
	for (i__ = 1; i__ <= i__2; ++i__) {
	    c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
	}
    }
#pragma endscop
    return 0;
}
