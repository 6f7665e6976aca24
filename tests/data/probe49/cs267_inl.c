/* CS267 HW1 starter (Demmel/Baden) square_dgemm with do_block inlined by hand, as students do;
   column-major, lda-by-lda, min macro in the block bounds. */
const char* dgemm_desc = "Simple blocked dgemm.";

#if !defined(BLOCK_SIZE)
#define BLOCK_SIZE 41
#endif

#define min(a,b) (((a)<(b))?(a):(b))

void square_dgemm (int lda, double* A, double* B, double* restrict C)
{
  /* For each block-row of A */ 
  for (int i = 0; i < lda; i += BLOCK_SIZE)
    /* For each block-column of B */
    for (int j = 0; j < lda; j += BLOCK_SIZE)
      /* Accumulate block dgemms into block of C */
      for (int k = 0; k < lda; k += BLOCK_SIZE)
      {
	/* Correct block dimensions if block "goes off edge of" the matrix */
	int M = min (BLOCK_SIZE, lda-i);
	int N = min (BLOCK_SIZE, lda-j);
	int K = min (BLOCK_SIZE, lda-k);

	/* Perform individual block dgemm */
	for (int ii = i; ii < i+M; ++ii)
	  for (int jj = j; jj < j+N; ++jj)
	  {
	    double cij = C[ii+jj*lda];
	    for (int kk = k; kk < k+K; ++kk)
	      cij += A[ii+kk*lda] * B[kk+jj*lda];
	    C[ii+jj*lda] = cij;
	  }
      }
}
