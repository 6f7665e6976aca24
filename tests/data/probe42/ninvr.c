/* NPB SP ninvr(), temporaries declared at function level as in the original */
double rhs[12][13][13][5], bt;
int nx2, ny2, nz2;
void ninvr()
{
  int i, j, k;
  double r1, r2, r3, r4, r5, t1, t2;
#pragma scop
  for (k = 1; k <= nz2; k++) {
    for (j = 1; j <= ny2; j++) {
      for (i = 1; i <= nx2; i++) {
        r1 = rhs[k][j][i][0];
        r2 = rhs[k][j][i][1];
        r3 = rhs[k][j][i][2];
        r4 = rhs[k][j][i][3];
        r5 = rhs[k][j][i][4];
        t1 = bt * r3;
        t2 = 0.5 * ( r4 + r5 );
        rhs[k][j][i][0] = -r2;
        rhs[k][j][i][1] =  r1;
        rhs[k][j][i][2] = bt * ( r4 - r5 );
        rhs[k][j][i][3] = -t1 + t2;
        rhs[k][j][i][4] =  t1 + t2;
      }
    }
  }
#pragma endscop
}
