/* minimal: f2c's bound temporary i__1 set again before a second loop nest */
typedef int integer;
typedef double doublereal;

/* Subroutine */ int twoloops_(integer *n, doublereal *a, doublereal *b)
{
    integer i__1;
    static integer i__;

    /* Parameter adjustments */
    --b;
    --a;

    /* Function Body */
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
	a[i__] = b[i__] * 2.;
    }
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
	b[i__] = a[i__] + 1.;
    }
    return 0;
}
