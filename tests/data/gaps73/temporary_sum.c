double kern(int n, double y[n], double x[n]) {
  int i; double t, s = 0.0;
#pragma scop
  for (i = 0; i < n; i++) {
    t = x[i] * 2.0;
    s += t * y[i];
  }
#pragma endscop
  return s;
}
