/* speexdsp libspeexdsp/resample.c resampler_basic_direct_single inner product, with the
   while-loop state machine (last_sample += int_advance; samp_frac_num += frac_advance; wrap at
   den_rate) replaced by its closed form for a fixed NUM/DEN ratio: out sample n reads the sinc
   phase (n*NUM) % DEN and input position (n*NUM) / DEN.  Types and macros as speexdsp's float build. */
typedef float spx_word16_t;
typedef float spx_word32_t;
#define MULT16_16(a,b)     ((spx_word32_t)(a)*(spx_word32_t)(b))
#define NUM 3
#define DEN 2
#define FILT_LEN 8

void resample_fixed(const spx_word16_t *sinc_table, const spx_word16_t *in,
                    spx_word16_t *out, int out_len, int out_stride)
{
   int out_sample;
   for (out_sample = 0; out_sample < out_len; out_sample++)
   {
      int j;
      spx_word32_t sum = 0;
      for(j=0;j<FILT_LEN;j++) sum += MULT16_16(sinc_table[((out_sample*NUM) % DEN)*FILT_LEN + j], in[(out_sample*NUM) / DEN + j]);
      out[out_stride * out_sample] = sum;
   }
}
