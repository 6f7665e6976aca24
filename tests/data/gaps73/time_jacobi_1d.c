void f(int T, int n, double A[n], double B[n])
{
  int t, i;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33 * (A[i-1] + A[i] + A[i+1]);
    for (i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
#pragma endscop
}
