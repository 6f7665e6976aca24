void kern(int n, double A[64])
{
  int i;
#pragma scop
  for (i = 0; i < n / -(2) + 40; i++)
    A[i] = i;
#pragma endscop
}
