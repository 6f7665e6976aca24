void f(int n, int predict, double *a, double *b)
{
  int i;
  double t;
  if (predict) {
#pragma scop
    for (i = 0; i < n; i++) {
      t = a[i] * 0.5;
      b[i] = t * t;
    }
#pragma endscop
  } else {
#pragma scop
    for (i = 0; i < n; i++) {
      t = a[i] + 1.0;
      b[i] = t;
    }
#pragma endscop
  }
}
