double kern(int n, double x[n], double y[n]) {
  int i;
  double s = 0.0;
#pragma scop
  for (i = 0; i < n; i++)
    s += x[i] * y[i];
#pragma endscop
  return s;
}
