void f(int n, double A[n], double h[8]) {
  int i;
#pragma omp parallel for
#pragma scop
  for (i = 0; i < n; i++) {
#pragma omp atomic
    h[i % 8] += A[i];
  }
#pragma endscop
}
