void f(long n, double *a) {
  unsigned short i;
#pragma scop
  for (i = 0; i != n - 3; i += 2)
    a[i] = a[i] + 1.0;
#pragma endscop
}
