void kern(int n, double a[n], double x[n]) {
  int i;
  double t;
#pragma omp parallel private(t)
  {
#pragma scop
#pragma omp for
    for (i = 0; i < n; i++) {
      t = x[i] * x[i];
      a[i] = t + 1.0;
    }
#pragma endscop
  }
}
