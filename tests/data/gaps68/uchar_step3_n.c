void kern(unsigned char n, double y[256], double x[256])
{
  unsigned char i;
#pragma scop
  for (i = 0; i < n; i += 3)
    y[i] += x[i] * 2;
#pragma endscop
}
