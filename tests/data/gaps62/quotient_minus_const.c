void k(int n, double A[64])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    if ((i - 5) / 2 - 1 > 0)
      A[i] = A[i] * 2.0;
#pragma endscop
}
