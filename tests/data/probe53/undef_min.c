/* minimal from SW4 rhs4sg_rev: function-local #define index macros, #undef'd at the end */
void f(int ifirst, int ilast, int jfirst, int jlast, double *a_mu, double *a_lu)
{
#define mu(i,j)     a_mu[base+i+ni*(j)]
#define lu(i,j)     a_lu[base+i+ni*(j)]
   const int ni    = ilast-ifirst+1;
   const int base  = -(ifirst+ni*jfirst);
   int i, j;
   for( j=jfirst+2; j <= jlast-2 ; j++ )
      for( i=ifirst+2; i <= ilast-2 ; i++ )
         lu(i,j) = mu(i,j-2) + mu(i-2,j) + mu(i+2,j+2);
#undef mu
#undef lu
}
