void kern(unsigned n, double A[100])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = (i - n) / 2;
#pragma endscop
}
