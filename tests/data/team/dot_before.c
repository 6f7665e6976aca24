double dot(int n, const double *xv, const double *yv) {
  double local_result = 0.0;
  #pragma omp parallel for reduction (+:local_result)
#pragma scop
  for (int i=0; i<n; i++) local_result += xv[i]*yv[i];
#pragma endscop
  return local_result;
}
