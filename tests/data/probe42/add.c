/* NPB SP add(): #pragma omp parallel for default(shared) private(i,j,k,m) */
double u[12][13][13][5], rhs[12][13][13][5];
int nx2, ny2, nz2;
void add()
{
  int i, j, k, m;
#pragma scop
  for (k = 1; k <= nz2; k++) {
    for (j = 1; j <= ny2; j++) {
      for (i = 1; i <= nx2; i++) {
        for (m = 0; m < 5; m++) {
          u[k][j][i][m] = u[k][j][i][m] + rhs[k][j][i][m];
        }
      }
    }
  }
#pragma endscop
}
