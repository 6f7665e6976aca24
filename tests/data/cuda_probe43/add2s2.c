/* math.f -- translated by f2c: add2s2 (a = a + c1*b); the parameter adjustments make a and b
   point one element before the caller's arrays, so a[0] and b[0] are not the caller's memory */
typedef int integer;
typedef double doublereal;

int add2s2_(doublereal *a, doublereal *b, doublereal *c1, integer *n)
{
    integer i__1;
    static integer i__;
    --b;
    --a;
    i__1 = *n;
#pragma scop
    for (i__ = 1; i__ <= i__1; ++i__) {
	a[i__] += *c1 * b[i__];
    }
#pragma endscop
    return 0;
}
