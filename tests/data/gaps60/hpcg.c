double dot(int n, const double * x, const double * y) {
  double local_result = 0.0;
#ifndef HPCG_NO_OPENMP
  #pragma omp parallel for reduction (+:local_result)
#endif
#pragma scop
  for (int i=0; i<n; i++) local_result += x[i]*y[i];
#pragma endscop
  return local_result;
}
