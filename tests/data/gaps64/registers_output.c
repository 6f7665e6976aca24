/*
 * looptx 0.1.0: generated from g4_mm.c
 * recipe applied:
 *   registers: {stmt: 0, array: C, at: k}
 */
void kern(int n, double C[64][64], double A[64][64], double B[64][64])
{
  int i, j, k;
#pragma scop
  {
    double C_r;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        C_r = C[i][j];
        for (k = 0; k < n; k++)
          C_r += A[i][k] * B[k][j];
        C[i][j] = C_r;
      }
  }
#pragma endscop
}
