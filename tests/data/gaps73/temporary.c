void kern(int n, double y[n], double z[n], double x[n]) {
  int i;
  double t;
#pragma scop
  for (i = 0; i < n; i++) {
    t = x[i] * 2.0 + 1.0;
    y[i] = t * t;
    z[i] = t - y[i];
  }
#pragma endscop
}
