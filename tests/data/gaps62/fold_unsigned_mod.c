/* (5 - 10u) % 3 is 2 in C (4294967291 % 3), not -2 */
void k(int n, double A[64], double B[64])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = B[i + (5 - 10u) % 3 + 2];
#pragma endscop
}
