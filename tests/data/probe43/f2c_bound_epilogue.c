/* f2c loop: bound temporaries i__2 set inside the outer loop; the function reads i__ after */
int zero_(double *c__, int *m, int *n, int c_dim1)
{
    int i__1, i__2, i__, j;
    i__1 = *n;
#pragma scop
    for (j = 1; j <= i__1; ++j) {
	i__2 = *m;
	for (i__ = 1; i__ <= i__2; ++i__) {
	    c__[i__ + j * c_dim1] = 0.;
	}
    }
#pragma endscop
    return i__ * 1000 + j;
}
