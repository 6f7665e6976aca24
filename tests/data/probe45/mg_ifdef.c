void st(int nx, double *in, double *out)
{
   int i;
#if defined _MG_OPENMP
#pragma omp parallel for
#endif
   for ( i=1; i<=nx; i++ )
      out[i] = ( in[i-1] + in[i] + in[i+1] ) / 3.0;
}
