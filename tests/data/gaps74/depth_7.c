void k(int n, double A[n][n][n][n][n][n][n], double B[n][n][n][n][n][n][n])
{
  int i0, i1, i2, i3, i4, i5, i6;
#pragma scop
  for (i0 = 1; i0 < n - 1; i0++)
    for (i1 = 1; i1 < n - 1; i1++)
      for (i2 = 1; i2 < n - 1; i2++)
        for (i3 = 1; i3 < n - 1; i3++)
          for (i4 = 1; i4 < n - 1; i4++)
            for (i5 = 1; i5 < n - 1; i5++)
              for (i6 = 1; i6 < n - 1; i6++)
                  A[i0][i1][i2][i3][i4][i5][i6] = 0.5 * (A[i0][i1][i2][i3][i4][i5][i6] + A[i0 - 1][i1][i2][i3][i4][i5][i6] + A[i0][i1 - 1][i2][i3][i4][i5][i6] + A[i0][i1][i2 - 1][i3][i4][i5][i6] + A[i0][i1][i2][i3 - 1][i4][i5][i6] + A[i0][i1][i2][i3][i4 - 1][i5][i6] + A[i0][i1][i2][i3][i4][i5 - 1][i6] + A[i0][i1][i2][i3][i4][i5][i6 - 1]) + B[i0 + 1][i1][i2][i3][i4][i5][i6];
#pragma endscop
}
