double kern(int n, double y[n], double x[n], double z[1]) {
  int i;
  double t = -1.0;
#pragma scop
  for (i = 0; i < n; i++) {
    t = x[i] + 1.0;
    y[i] = t * 3.0;
  }
  z[0] = t;
  t = 5.0;
#pragma endscop
  return t;
}
