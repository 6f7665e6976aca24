/* math.f -- translated by f2c: Nek5000's add2s2 and mxmf2 as f2c writes every routine */
typedef int integer;
typedef double doublereal;

/* Subroutine */ int add2s2_(doublereal *a, doublereal *b, doublereal *c1,
	integer *n)
{
    /* System generated locals */
    integer i__1;

    /* Local variables */
    static integer i__;

    /* Parameter adjustments */
    --b;
    --a;

    /* Function Body */
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
	a[i__] += *c1 * b[i__];
    }
    return 0;
} /* add2s2_ */

/* Subroutine */ int mxmf2_(doublereal *a, integer *m1, doublereal *b,
	integer *m2, doublereal *c__, integer *n3)
{
    integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2,
	    i__3;
    static integer i__, j, k;

    a_dim1 = *m1;
    a_offset = 1 + a_dim1;
    a -= a_offset;
    c_dim1 = *m1;
    c_offset = 1 + c_dim1;
    c__ -= c_offset;
    b_dim1 = *m2;
    b_offset = 1 + b_dim1;
    b -= b_offset;

    i__1 = *n3;
    for (j = 1; j <= i__1; ++j) {
	i__2 = *m1;
	for (i__ = 1; i__ <= i__2; ++i__) {
	    c__[i__ + j * c_dim1] = 0.;
	    i__3 = *m2;
	    for (k = 1; k <= i__3; ++k) {
		c__[i__ + j * c_dim1] += a[i__ + k * a_dim1] * b[k + j * 
			b_dim1];
	    }
	}
    }
    return 0;
} /* mxmf2_ */
