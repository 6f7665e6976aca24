/* xiph/opus celt/celt_lpc.c celt_fir_c (SMALL_FOOTPRINT branch, float build: arch.h macros as
   opus defines them without FIXED_POINT).  VARDECL/ALLOC scratch replaced by caller buffers
   rnum[ord] and x[N+ord] (the stack alloc cannot be modelled). */
typedef float opus_val16;
typedef float opus_val32;
#define SIG_SHIFT 12
#define EXTEND32(x) (x)
#define SHL32(a,shift) (a)
#define PSHR32(a,shift) (a)
#define SATURATE16(x) (x)
#define MAC16_16(c,a,b)     ((c)+(opus_val32)(a)*(opus_val32)(b))

void celt_fir_c(
         const opus_val16 *_x,
         const opus_val16 *num,
         opus_val16 *_y,
         int N,
         int ord,
         opus_val16 *mem,
         opus_val16 *rnum,
         opus_val16 *x)
{
   int i,j;
   for(i=0;i<ord;i++)
      rnum[i] = num[ord-i-1];
   for(i=0;i<ord;i++)
      x[i] = mem[ord-i-1];
   for (i=0;i<N;i++)
      x[i+ord]=_x[i];
   for(i=0;i<ord;i++)
      mem[i] = _x[N-i-1];
   for (i=0;i<N;i++)
   {
      opus_val32 sum = SHL32(EXTEND32(_x[i]), SIG_SHIFT);
      for (j=0;j<ord;j++)
      {
         sum = MAC16_16(sum,rnum[j],x[i+j]);
      }
      _y[i] = SATURATE16(PSHR32(sum, SIG_SHIFT));
   }
}
