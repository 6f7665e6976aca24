/* NPB BT compute_rhs zeta dissipation shape: k = 1; then a nest using rhs[k] */
#define N 12
double rhs[N][N][5], u[N][N][5], dssp;
void f(int nj)
{
  int j, k, m;
#pragma scop
  k = 1;
  for (j = 1; j <= nj-2; j++)
    for (m = 0; m < 5; m++)
      rhs[k][j][m] = rhs[k][j][m] - dssp * (5.0*u[k][j][m] - 4.0*u[k+1][j][m] + u[k+2][j][m]);
  k = 2;
  for (j = 1; j <= nj-2; j++)
    for (m = 0; m < 5; m++)
      rhs[k][j][m] = rhs[k][j][m] - dssp * (-4.0*u[k-1][j][m] + 6.0*u[k][j][m] - 4.0*u[k+1][j][m] + u[k+2][j][m]);
#pragma endscop
}
