void jac2(int T, int n, double A[n], double B[n])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = (A[i - 1] + A[i] + A[i + 1]) * 0.33;
    for (int i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
#pragma endscop
}
