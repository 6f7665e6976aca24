void off1(long n, double *A, const double *B)
{
  long i;
#pragma scop
  for (i = n - 50; i < n; i++)
    A[i - n + 50] = B[i - n + 50] * 2.0 + i;
#pragma endscop
}
