/* xiph/opus celt/pitch.c pitch_downsample (float build, C==1 and C==2 branches), from the real
   code as of opus 1.3: half-band decimation of the 2-channel signal into x_lp. */
typedef float celt_sig;
typedef float opus_val16;
#define HALF32(x) (.5f*(x))
#define OPUS_RESTRICT restrict

void pitch_downsample(celt_sig * OPUS_RESTRICT x[], opus_val16 * OPUS_RESTRICT x_lp,
      int len, int C)
{
   int i;
   for (i=1;i<len>>1;i++)
      x_lp[i] = HALF32(HALF32(x[0][(2*i-1)]+x[0][(2*i+1)])+x[0][2*i]);
   x_lp[0] = HALF32(HALF32(x[0][1])+x[0][0]);
   if (C==2)
   {
      for (i=1;i<len>>1;i++)
         x_lp[i] += HALF32(HALF32(x[1][(2*i-1)]+x[1][(2*i+1)])+x[1][2*i]);
      x_lp[0] += HALF32(HALF32(x[1][1])+x[1][0]);
   }
}
