void lap(int ifirst, int ilast, double *a_u, double *a_lu)
{
#define u(i)  a_u[base+(i)]
#define lu(i) a_lu[base+(i)]
   const int ni   = ilast-ifirst+1;
   const int base = -ifirst;
   for( int i=ifirst+2; i <= ilast-2 ; i++ )
      lu(i) = u(i-2) - 2*u(i) + u(i+2) + 0*ni;
}
