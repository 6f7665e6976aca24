void waxpby(int n, double alpha, double beta, const double *xv, const double *yv, double *wv) {
  if (alpha==1.0) {
#pragma scop
    #pragma omp parallel for
    for (int i=0; i<n; i++) wv[i] = xv[i] + beta * yv[i];
#pragma endscop
  } else {
#pragma scop
    #pragma omp parallel for
    for (int i=0; i<n; i++) wv[i] = alpha * xv[i] + beta * yv[i];
#pragma endscop
  }
}
