// Mantevo/HPCCG waxpby.cpp with each nest marked as looptx's error message suggests
int waxpby (const int n, const double alpha, const double * const x,
	    const double beta, const double * const y,
		     double * const w)
{
  if (alpha==1.0) {
#pragma scop
#ifdef USING_OMP
#pragma omp parallel for
#endif
    for (int i=0; i<n; i++) w[i] = x[i] + beta * y[i];
#pragma endscop
  }
  else if(beta==1.0) {
#pragma scop
#ifdef USING_OMP
#pragma omp parallel for
#endif
    for (int i=0; i<n; i++) w[i] = alpha * x[i] + y[i];
#pragma endscop
  }
  else {
#pragma scop
#ifdef USING_OMP
#pragma omp parallel for
#endif
    for (int i=0; i<n; i++) w[i] = alpha * x[i] + beta * y[i];
#pragma endscop
  }

  return(0);
}
