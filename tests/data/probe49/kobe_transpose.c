/* kobeliu85/cs267-dgemm dgemm-blocked.c: do_block_transpose verbatim, with a
   const double *restrict / register double variant below it. */
static void do_block_transpose(const int lda, int M, int N, int K, double* A, double* B, double*restrict C)
{
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double cij = C[i+j*lda];
  		for(int k=0; k<K; ++k) {
				cij += A[i*M+k] * B[j*lda+k];
  		}
  		C[i+j*lda] = cij;
  	}
	}
}
void do_block_cr(const int lda, const int M, const int N, const int K, const double *restrict A, const double *restrict B, double *restrict C)
{
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k) {
      register double bkj = B[k+j*lda];
      for (int i = 0; i < M; ++i)
        C[i+j*lda] += A[i+k*lda] * bkj;
    }
}
void call_it(int lda, int M, int N, int K, double* A, double* B, double* C) { do_block_transpose(lda, M, N, K, A, B, C); }
