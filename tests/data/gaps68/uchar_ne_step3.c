void f(double *a) {
  unsigned char i;
#pragma scop
  for (i = 1; i != 251; i += 3)
    a[i] = a[i] + 1.0;
#pragma endscop
}
