void kern(unsigned n, double A[300][300])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = i + 3; j >= 0; j -= 3)
      A[i + 40][j + 40] = i + j + 1;
#pragma endscop
}
