void f(unsigned m, double *a) {
  short i;
#pragma scop
  for (i = 10; i > m; i -= 3)
    a[i + 40000] = a[i + 40000] + 1.0;
#pragma endscop
}
