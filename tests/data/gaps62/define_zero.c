/* m = 0: C runs j = 0 ((0 - 1) / 4 == 0); without -D looptx models m >= 1 and keeps the as-written fallback */
void sd(int n, int m, double A[64][64])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j <= (m - 1) / 4; j++)
      A[i][j] = A[i][j] + 1.0;
#pragma endscop
}
