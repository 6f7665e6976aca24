void blk(long n, char *A, const char *B)
{
#pragma scop
  for (long i = 0; i < n; i++)
    A[i] = B[i] + 1;
#pragma endscop
}
