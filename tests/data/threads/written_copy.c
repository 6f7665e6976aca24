void written_copy(int n, int p, double y[n], double B[n][p])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < p; k++)
      B[i][k] = k + 1.0;
    y[i] = B[i][0];
  }
#pragma endscop
}
