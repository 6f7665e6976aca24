void kern(long n, long q, double A[96][96], double B[96][96], double C[96][96])
{
  int i, j;
#pragma scop
  for (i = n / 2 + 4; i >= -3; i -= 2)
    for (j = 0; j <= (i + 8) % 3 + 3; j++)
      A[i + 24][j + 24] = B[i + 24][j + 24] + j;
#pragma endscop
}
