void scale(int n, double *a, double *out)
{
  int i;
  double t;
#pragma omp parallel
  {
#pragma scop
#pragma omp for lastprivate(t)
    for (i = 0; i < n; i++) {
      t = a[i] * 3.0;
      a[i] = t;
    }
#pragma endscop
  }
  out[0] = t;
}
