//  SW4 LICENSE
// # ----------------------------------------------------------------------
// # SW4 - Seismic Waves, 4th order
// # ----------------------------------------------------------------------
#include "sw4.h"

void rhs4th3fort_simple( int ifirst, int ilast, int jfirst, int jlast, int kfirst, int klast,
                         float_sw4* __restrict__ a_u, float_sw4* __restrict__ a_mu,
                         float_sw4* __restrict__ a_la, float_sw4* __restrict__ a_lu,
                         float_sw4 h )
{
   // Direct reuse of fortran code by these macro definitions:
#define mu(i,j,k)     a_mu[base+(i)+ni*(j)+nij*(k)]
#define la(i,j,k)     a_la[base+(i)+ni*(j)+nij*(k)]
#define u(c,i,j,k)   a_u[base3+(i)+ni*(j)+nij*(k)+nijk*(c)]
#define lu(c,i,j,k) a_lu[base3+(i)+ni*(j)+nij*(k)+nijk*(c)]

   const float_sw4 i6   = 1.0/6;
   const float_sw4 tf   = 0.75;

   const int ni    = ilast-ifirst+1;
   const int nij   = ni*(jlast-jfirst+1);
   const int nijk  = nij*(klast-kfirst+1);
   const int base  = -(ifirst+ni*jfirst+nij*kfirst);
   const int base3 = base-nijk;

   const float_sw4 cof = 1.0/(h*h);

#pragma omp parallel
   {
#pragma omp for
   for( int k= kfirst+2; k <= klast-2 ; k++ )
      for( int j=jfirst+2; j <= jlast-2 ; j++ )
#pragma omp simd
#pragma ivdep
	 for( int i=ifirst+2; i <= ilast-2 ; i++ )
	 {
	    float_sw4 mux1, mux2, mux3, mux4, r1;
	    /* from inner_loop_4a, 28x3 = 84 ops */
            mux1 = mu(i-1,j,k)*SW4_FLT(0.0)+ mu(i-1,j,k)-tf*(mu(i,j,k)+mu(i-2,j,k));
            mux2 = mu(i-2,j,k)+mu(i+1,j,k)+3*(mu(i,j,k)+mu(i-1,j,k));
            mux3 = mu(i-1,j,k)+mu(i+2,j,k)+3*(mu(i+1,j,k)+mu(i,j,k));
            mux4 = mu(i+1,j,k)-tf*(mu(i,j,k)+mu(i+2,j,k));

            r1 = i6*( (2*mux1+la(i-1,j,k)-tf*(la(i,j,k)+la(i-2,j,k)))*
                         (u(1,i-2,j,k)-u(1,i,j,k))+
                      (2*mux2+la(i-2,j,k)+la(i+1,j,k)+3*(la(i,j,k)+la(i-1,j,k)))*
                         (u(1,i-1,j,k)-u(1,i,j,k))+
                      (2*mux3+la(i-1,j,k)+la(i+2,j,k)+3*(la(i+1,j,k)+la(i,j,k)))*
                         (u(1,i+1,j,k)-u(1,i,j,k))+
                      (2*mux4+ la(i+1,j,k)-tf*(la(i,j,k)+la(i+2,j,k)))*
                         (u(1,i+2,j,k)-u(1,i,j,k)) );
            lu(1,i,j,k) = cof*r1;
            lu(2,i,j,k) = cof*i6*( mux1*(u(2,i-2,j,k)-u(2,i,j,k)) + mux2*(u(2,i-1,j,k)-u(2,i,j,k)) +
                                   mux3*(u(2,i+1,j,k)-u(2,i,j,k)) + mux4*(u(2,i+2,j,k)-u(2,i,j,k)) );
            lu(3,i,j,k) = cof*i6*( mux1*(u(3,i-2,j,k)-u(3,i,j,k)) + mux2*(u(3,i-1,j,k)-u(3,i,j,k)) +
                                   mux3*(u(3,i+1,j,k)-u(3,i,j,k)) + mux4*(u(3,i+2,j,k)-u(3,i,j,k)) );
	 }
   }
#undef mu
#undef la
#undef u
#undef lu
}
