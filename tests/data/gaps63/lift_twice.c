void kern(int n, double A[300][300])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = i + 3; j >= -1; j -= 3) {
      A[i + 9][9] = 1;
      for (k = j - 2; k <= j; k++)
        A[k + 9][i] = 2;
    }
#pragma endscop
}
