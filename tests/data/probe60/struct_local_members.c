/* MILC-style complex temporary built member by member, stored member by member */
typedef struct { double real; double imag; } dcomplex;
#define CMUL(a,b,c) { (c).real = (a).real*(b).real - (a).imag*(b).imag; \
		      (c).imag = (a).real*(b).imag + (a).imag*(b).real; }

void cmul_field(int n, dcomplex *a, dcomplex *b, dcomplex *c)
{
  int i;
  dcomplex x;
  for (i = 0; i < n; i++) {
    CMUL(a[i], b[i], x)
    c[i].real = x.real; c[i].imag = x.imag;
  }
}
