/* TCCG 20 abcd-aebf-dfce: C[d][c][b][a] = sum_{e,f} A[f][b][e][a] * B[e][c][f][d] */
void tccg20(int na, int nb, int nc, int nd, int ne, int nf,
            double C[nd][nc][nb][na], const double A[nf][nb][ne][na], const double B[ne][nc][nf][nd])
{
#pragma scop
  for (int d = 0; d < nd; d++)
    for (int c = 0; c < nc; c++)
      for (int b = 0; b < nb; b++)
        for (int a = 0; a < na; a++) {
          double acc = 0.0;
          for (int e = 0; e < ne; e++)
            for (int f = 0; f < nf; f++)
              acc += A[f][b][e][a] * B[e][c][f][d];
          C[d][c][b][a] = acc;
        }
#pragma endscop
}
