int kern(double *a, double *b) {
  signed char i;
#pragma scop
  for (i = -128; i < 127; i += 3)
    a[i + 128] = a[i + 129] + b[i + 128] * i;
#pragma endscop
  return i;
}