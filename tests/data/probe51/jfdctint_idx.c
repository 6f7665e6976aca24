/* IJG libjpeg 6b jfdctint.c, jpeg_fdct_islow pass 1 (rows) and pass 2 (columns), written
 * from memory with jdct.h / jmorecfg.h macros inlined.  The original walks dataptr; here data[DCTSIZE*ctr + j], as looptx's remedy says. */
typedef long INT32;
typedef int DCTELEM;
#define DCTSIZE 8
#define CONST_BITS  13
#define PASS1_BITS  2
#define ONE	((INT32) 1)
#define RIGHT_SHIFT(x,shft)	((x) >> (shft))
#define DESCALE(x,n)  RIGHT_SHIFT((x) + (ONE << ((n)-1)), n)
#define MULTIPLY16C16(var,const)  ((var) * (const))
#define MULTIPLY(var,const)  MULTIPLY16C16(var,const)
#define FIX_0_298631336  ((INT32)  2446)
#define FIX_0_390180644  ((INT32)  3196)
#define FIX_0_541196100  ((INT32)  4433)
#define FIX_0_765366865  ((INT32)  6270)
#define FIX_0_899976223  ((INT32)  7373)
#define FIX_1_175875602  ((INT32)  9633)
#define FIX_1_501321110  ((INT32)  12299)
#define FIX_1_847759065  ((INT32)  15137)
#define FIX_1_961570560  ((INT32)  16069)
#define FIX_2_053119869  ((INT32)  16819)
#define FIX_2_562915447  ((INT32)  20995)
#define FIX_3_072711026  ((INT32)  25172)

void jpeg_fdct_islow (DCTELEM * data)
{
  INT32 tmp0, tmp1, tmp2, tmp3, tmp4, tmp5, tmp6, tmp7;
  INT32 tmp10, tmp11, tmp12, tmp13;
  INT32 z1, z2, z3, z4, z5;
  int ctr;

  /* Pass 1: process rows. */
  /* Note results are scaled up by sqrt(8) compared to a true DCT; */
  /* furthermore, we scale the results by 2**PASS1_BITS. */

  for (ctr = 0; ctr < DCTSIZE; ctr++) {
    tmp0 = data[DCTSIZE*ctr + 0] + data[DCTSIZE*ctr + 7];
    tmp7 = data[DCTSIZE*ctr + 0] - data[DCTSIZE*ctr + 7];
    tmp1 = data[DCTSIZE*ctr + 1] + data[DCTSIZE*ctr + 6];
    tmp6 = data[DCTSIZE*ctr + 1] - data[DCTSIZE*ctr + 6];
    tmp2 = data[DCTSIZE*ctr + 2] + data[DCTSIZE*ctr + 5];
    tmp5 = data[DCTSIZE*ctr + 2] - data[DCTSIZE*ctr + 5];
    tmp3 = data[DCTSIZE*ctr + 3] + data[DCTSIZE*ctr + 4];
    tmp4 = data[DCTSIZE*ctr + 3] - data[DCTSIZE*ctr + 4];

    tmp10 = tmp0 + tmp3;
    tmp13 = tmp0 - tmp3;
    tmp11 = tmp1 + tmp2;
    tmp12 = tmp1 - tmp2;

    data[DCTSIZE*ctr + 0] = (DCTELEM) ((tmp10 + tmp11) << PASS1_BITS);
    data[DCTSIZE*ctr + 4] = (DCTELEM) ((tmp10 - tmp11) << PASS1_BITS);

    z1 = MULTIPLY(tmp12 + tmp13, FIX_0_541196100);
    data[DCTSIZE*ctr + 2] = (DCTELEM) DESCALE(z1 + MULTIPLY(tmp13, FIX_0_765366865),
				   CONST_BITS-PASS1_BITS);
    data[DCTSIZE*ctr + 6] = (DCTELEM) DESCALE(z1 + MULTIPLY(tmp12, - FIX_1_847759065),
				   CONST_BITS-PASS1_BITS);

    z1 = tmp4 + tmp7;
    z2 = tmp5 + tmp6;
    z3 = tmp4 + tmp6;
    z4 = tmp5 + tmp7;
    z5 = MULTIPLY(z3 + z4, FIX_1_175875602); /* sqrt(2) * c3 */

    tmp4 = MULTIPLY(tmp4, FIX_0_298631336); /* sqrt(2) * (-c1+c3+c5-c7) */
    tmp5 = MULTIPLY(tmp5, FIX_2_053119869); /* sqrt(2) * ( c1+c3-c5+c7) */
    tmp6 = MULTIPLY(tmp6, FIX_3_072711026); /* sqrt(2) * ( c1+c3+c5-c7) */
    tmp7 = MULTIPLY(tmp7, FIX_1_501321110); /* sqrt(2) * ( c1+c3-c5-c7) */
    z1 = MULTIPLY(z1, - FIX_0_899976223); /* sqrt(2) * (c7-c3) */
    z2 = MULTIPLY(z2, - FIX_2_562915447); /* sqrt(2) * (-c1-c3) */
    z3 = MULTIPLY(z3, - FIX_1_961570560); /* sqrt(2) * (-c3-c5) */
    z4 = MULTIPLY(z4, - FIX_0_390180644); /* sqrt(2) * (c5-c3) */

    z3 += z5;
    z4 += z5;

    data[DCTSIZE*ctr + 7] = (DCTELEM) DESCALE(tmp4 + z1 + z3, CONST_BITS-PASS1_BITS);
    data[DCTSIZE*ctr + 5] = (DCTELEM) DESCALE(tmp5 + z2 + z4, CONST_BITS-PASS1_BITS);
    data[DCTSIZE*ctr + 3] = (DCTELEM) DESCALE(tmp6 + z2 + z3, CONST_BITS-PASS1_BITS);
    data[DCTSIZE*ctr + 1] = (DCTELEM) DESCALE(tmp7 + z1 + z4, CONST_BITS-PASS1_BITS);

  }
}
