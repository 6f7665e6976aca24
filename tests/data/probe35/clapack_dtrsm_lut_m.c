/* juanjosegarciaripoll/cblapack BLAS/SRC/dtrsm.c (left, upper, B := alpha*inv( A' )*B branch) */
typedef int integer;
typedef double doublereal;
typedef int logical;
int dtrsm_lut(logical nounit, integer *m, integer *n, doublereal *alpha, doublereal *a,
	integer *lda, doublereal *b, integer *ldb)
{
    integer a_dim1, a_offset, b_dim1, b_offset, i__1, i__2, i__3;
    integer i__, j, k;
    doublereal temp;

    a_dim1 = *lda;
    a_offset = 1 + a_dim1;
    a -= a_offset;
    b_dim1 = *ldb;
    b_offset = 1 + b_dim1;
    b -= b_offset;

		i__1 = *n;
#pragma scop
		for (j = 1; j <= i__1; ++j) {
		    i__2 = *m;
		    for (i__ = 1; i__ <= i__2; ++i__) {
			temp = *alpha * b[i__ + j * b_dim1];
			i__3 = i__ - 1;
			for (k = 1; k <= i__3; ++k) {
			    temp -= a[k + i__ * a_dim1] * b[k + j * b_dim1];
			}
			if (nounit) {
			    temp /= a[i__ + i__ * a_dim1];
			}
			b[i__ + j * b_dim1] = temp;
		    }
		}
#pragma endscop
    return 0;
}
