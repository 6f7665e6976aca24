double a[1000], b[1000], c[1000];
void f(int n) {
  double r, s;
#pragma scop
  for (int k = 0; k < n; k++) {
    if (a[k] > b[k]) {
      r = a[k];
      s = b[k];
    } else {
      r = b[k];
      s = a[k];
    }
    c[k] = r - s;
  }
#pragma endscop
}
