int kern(double *a, double *b) {
  unsigned char i;
#pragma scop
  for (i = 0; i < 255; i += 3)
    a[i] = a[i + 1] * 0.5 + b[i];
#pragma endscop
  return i;
}
