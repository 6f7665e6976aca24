/* CS267 HW1 student code: do_block_l1, hand-unrolled k loop with four partial sums and a
   cleanup loop that continues from the unrolled loop's k (verbatim). */
const char* dgemm_desc = "Simple blocked dgemm.";

#define min(a,b) (((a)<(b))?(a):(b))

/* This auxiliary subroutine performs a smaller dgemm operation
 *  C := C + A * B
 * where C is M-by-N, A is M-by-K, and B is K-by-N. */
static void do_block_l1 (int lda, int M, int N, int K, double* A, double* B, double* C)
{
  /* For each row i of A */
  for (int i = 0; i < M; ++i)
    /* For each column j of B */ 
    for (int j = 0; j < N; ++j) 
    {
      /* Compute C(i,j) */
      double cij = 0, cij_1=0, cij_2=0, cij_3=0;//, cij_4=0, cij_5=0, cij_6=0, cij_7=0;
	int k = 0;
	for (; k < K - 3; k += 4)
	{
		cij += A[i+k*lda] * B[k+j*lda];
		cij_1 += A[i+(k+1)*lda] * B[(k+1)+j*lda];
		cij_2 += A[i+(k+2)*lda] * B[(k+2)+j*lda];
		cij_3 += A[i+(k+3)*lda] * B[(k+3)+j*lda];
	}
      for (; k < K; ++k)
	cij += A[i+k*lda] * B[k+j*lda];
	cij += cij_1;
	cij_2 += cij_3;
      C[i+j*lda] += cij + cij_2;
    }
}

void call_it(int lda, int M, int N, int K, double* A, double* B, double* C) { do_block_l1(lda, M, N, K, A, B, C); }
