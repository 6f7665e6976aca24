/* gemm.c: this file is part of PolyBench/C (kernel only, as in PolyBench 4.2) */
#include <math.h>
#include "polybench.h"
#define NI 20
#define NJ 25
#define NK 30
#define DATA_TYPE double

void kernel_gemm(int ni, int nj, int nk,
		 DATA_TYPE alpha,
		 DATA_TYPE beta,
		 DATA_TYPE C[NI][NJ],
		 DATA_TYPE A[NI][NK],
		 DATA_TYPE B[NK][NJ])
{
  int i, j, k;

#pragma scop
  /* C := alpha*A*B + beta*C */
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
	C[i][j] *= beta;
    for (k = 0; k < nk; k++) {
       for (j = 0; j < nj; j++)
	  C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop

}
