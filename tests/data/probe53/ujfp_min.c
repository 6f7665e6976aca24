/* minimal (from SW4 rhs4sg_rev): function-level temporary, privatized, k unroll-and-jammed, j under OpenMP */
void f(int nk, int nj, int ni, double a[nk][nj][ni], double b[nk][nj][ni])
{
  int i, j, k;
  double t;
  for (k = 1; k < nk - 1; k++)
    for (j = 0; j < nj; j++)
      for (i = 0; i < ni; i++) {
        t = a[k - 1][j][i] + a[k + 1][j][i];
        b[k][j][i] = 0.5 * t;
      }
}
