void kern(int n, double A[300], double B[300])
{
  int i;
#pragma scop
  for (i = 0; i < (n - 1) / 2; i++)
    A[i] = B[i] + i;
#pragma endscop
}
