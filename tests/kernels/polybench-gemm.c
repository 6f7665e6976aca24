// sizes: NI=32 NJ=24 NK=16 | NI=37 NJ=41 NK=29
// region: pragma
/* gemm written the way PolyBench 4 writes it: DATA_TYPE, SCALAR_VAL, _PB_* bounds and
 * POLYBENCH_2D parameters, all coming from macros in a local header. */
#include "polybench_style.h"

#ifndef NI
# define NI 32
#endif
#ifndef NJ
# define NJ 24
#endif
#ifndef NK
# define NK 16
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)

static DATA_TYPE g_A[NI][NK], g_B[NK][NJ], g_C[NI][NJ];

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                        DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j, k;
#pragma scop
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
      for (j = 0; j < _PB_NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop
}

int main(void)
{
  lx_seed(77);
  lx_fill_double(&g_A[0][0], (size_t)NI * NK);
  lx_fill_double(&g_B[0][0], (size_t)NK * NJ);
  lx_fill_double(&g_C[0][0], (size_t)NI * NJ);
  kernel_gemm(NI, NJ, NK, SCALAR_VAL(1.5), SCALAR_VAL(1.2), g_C, g_A, g_B);
  lx_dump("C", g_C, sizeof g_C);
  return 0;
}
