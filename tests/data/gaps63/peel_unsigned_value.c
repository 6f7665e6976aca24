void kern(unsigned n, double A[300])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = i - n;
#pragma endscop
}
