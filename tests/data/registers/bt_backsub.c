#ifndef N
#define N 12
#endif
double rhs[N][N][5];
double lhs[N][N][5][5];
void backsub(int n)
{
  int i, j, m, p;
#pragma scop
  for (i = 0; i < n - 1; i++)
    for (j = 0; j < n; j++)
      for (m = 0; m < 5; m++)
        for (p = 0; p < 5; p++)
          rhs[i][j][m] = rhs[i][j][m] - lhs[i][j][m][p] * rhs[i + 1][j][p];
#pragma endscop
}
