#include <stdint.h>
void arm_add_q7(const int8_t *pSrcA, const int8_t *pSrcB, int8_t *pDst, int blockSize)
{
  int i;
#pragma scop
  for (i = 0; i + 4 <= blockSize; i += 4) {
    pDst[i] = (int8_t)(pSrcA[i] + pSrcB[i]);
    pDst[i + 1] = (int8_t)(pSrcA[i + 1] + pSrcB[i + 1]);
    pDst[i + 2] = (int8_t)(pSrcA[i + 2] + pSrcB[i + 2]);
    pDst[i + 3] = (int8_t)(pSrcA[i + 3] + pSrcB[i + 3]);
  }
  for (; i < blockSize; i++)
    pDst[i] = (int8_t)(pSrcA[i] + pSrcB[i]);
#pragma endscop
}
