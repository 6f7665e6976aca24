/* CMSIS-DSP arm_biquad_cascade_df1_f32 generic loop (see biquad_cmsis.c), rewritten with integer
   indices instead of the walking pointers pIn/pOut/pState/pCoeffs, as the refusal message asks;
   same struct, types, statements and comments. */
#include <stdint.h>
typedef float float32_t;
typedef struct
{
        uint32_t numStages;
        float32_t *pState;
  const float32_t *pCoeffs;
} arm_biquad_casd_df1_inst_f32;

void arm_biquad_cascade_df1_f32_idx(
  const arm_biquad_casd_df1_inst_f32 * S,
  const float32_t * pSrc,
        float32_t * pDst,
        uint32_t blockSize)
{
        float32_t acc;                                 /* Accumulator */
        float32_t b0, b1, b2, a1, a2;                  /* Filter coefficients */
        float32_t Xn1, Xn2, Yn1, Yn2;                  /* Filter pState variables */
        float32_t Xn;                                  /* Temporary input */
        uint32_t sample, stage;                        /* Loop counters */

  for (sample = 0U; sample < blockSize; sample++)
    pDst[sample] = pSrc[sample];

  for (stage = 0U; stage < S->numStages; stage++)
  {
    /* Reading the coefficients */
    b0 = S->pCoeffs[5U * stage + 0U];
    b1 = S->pCoeffs[5U * stage + 1U];
    b2 = S->pCoeffs[5U * stage + 2U];
    a1 = S->pCoeffs[5U * stage + 3U];
    a2 = S->pCoeffs[5U * stage + 4U];

    /* Reading the pState values */
    Xn1 = S->pState[4U * stage + 0U];
    Xn2 = S->pState[4U * stage + 1U];
    Yn1 = S->pState[4U * stage + 2U];
    Yn2 = S->pState[4U * stage + 3U];

    for (sample = 0U; sample < blockSize; sample++)
    {
      /* Read the input */
      Xn = pDst[sample];

      /* acc =  b0 * x[n] + b1 * x[n-1] + b2 * x[n-2] + a1 * y[n-1] + a2 * y[n-2] */
      acc = (b0 * Xn) + (b1 * Xn1) + (b2 * Xn2) + (a1 * Yn1) + (a2 * Yn2);

      /* Store output in destination buffer. */
      pDst[sample] = acc;

      /* Every time after the output is computed state should be updated. */
      Xn2 = Xn1;
      Xn1 = Xn;
      Yn2 = Yn1;
      Yn1 = acc;
    }

    /* Store the updated state variables back into the pState array */
    S->pState[4U * stage + 0U] = Xn1;
    S->pState[4U * stage + 1U] = Xn2;
    S->pState[4U * stage + 2U] = Yn1;
    S->pState[4U * stage + 3U] = Yn2;
  }
}
