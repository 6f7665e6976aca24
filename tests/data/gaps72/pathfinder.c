void pf(int rows, int cols, const int *restrict wall, int *restrict dst)
{
  int t, n;
#pragma scop
  for (t = 0; t < rows - 1; t++)
    for (n = 0; n < cols; n++)
      dst[(t + 1)*cols + n] = wall[(t + 1)*cols + n] + dst[t*cols + (n < cols - 1 ? n + 1 : cols - 1)];
#pragma endscop
}
