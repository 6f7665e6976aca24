#define NS 16
double f(double a[NS][NS], double b[NS]) {
  int curr, prev, s;
  double m, p;
#pragma scop
  for (curr = 0; curr < NS; curr++) {
    m = a[curr][0];
    for (prev = 1; prev < NS; prev++)
      m += a[curr][prev];
    b[curr] = m;
  }
#pragma endscop
  s = 0;
  m = b[s];
  for (s = 1; s < NS; s++) {
    p = b[s];
    if (p < m) m = p;
  }
  return m;
}
