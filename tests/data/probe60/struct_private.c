/* MILC m_matvec.c (#ifndef FAST) with CMUL/CSUM, over sites, where the su3 structs are
   flattened to arrays of MILC complex: dcomplex U[][3][3], v[][3]. The accumulator is kept
   member by member (x.real, x.imag) and stored member by member. */
typedef struct { double real; double imag; } dcomplex;
#define CMUL(a,b,c) { (c).real = (a).real*(b).real - (a).imag*(b).imag; \
		      (c).imag = (a).real*(b).imag + (a).imag*(b).real; }
#define CSUM(a,b) { (a).real += (b).real; (a).imag += (b).imag; }

void matvec_sites(int sites_on_node, dcomplex U[][3][3], dcomplex src[][3], dcomplex dest[][3])
{
  register int s, i, j;
  dcomplex x, y;
  for (s = 0; s < sites_on_node; s++)
    for (i = 0; i < 3; i++) {
      x.real = x.imag = 0.0;
      for (j = 0; j < 3; j++) {
        CMUL( U[s][i][j], src[s][j], y )
        CSUM( x, y );
      }
      dest[s][i].real = x.real;
      dest[s][i].imag = x.imag;
    }
}
