/* (5 - 10u) / 2 - 2147483600 is 45 in C */
void k(double A[64])
{
  long i;
#pragma scop
  for (i = 0; i < (5 - 10u) / 2 - 2147483600; i++)
    A[i] = A[i] + 1.0;
#pragma endscop
}
