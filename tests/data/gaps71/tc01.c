void tc01(int nc, int nb, int na, int nd, double C[nc][nb][na], double A[na][nd][nb], double B[nc][nd])
{
#pragma scop
  for (int c = 0; c < nc; c++)
    for (int b = 0; b < nb; b++)
      for (int a = 0; a < na; a++)
        for (int d = 0; d < nd; d++)
          C[c][b][a] += A[a][d][b] * B[c][d];
#pragma endscop
}
