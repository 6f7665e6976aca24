double f(int n, double A[n], double B[n]) {
  int i; double t = 0.0;
#pragma scop
  for (i = 0; i < n; i++) {
    t = A[i] * 2.0;
    B[i] = t * t;
  }
#pragma endscop
  return t;
}
