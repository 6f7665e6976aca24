void f(unsigned m, float A[40])
{
#pragma scop
  for (int j = 0; j < 40; j++)
    A[j] = (j - m) / 2;
#pragma endscop
}
