void f(int n, double A[n], double B[n], double C[n])
{
  int i;
#pragma scop
  for (i = 1; i < n; i++)
    B[i] = A[i] * 2.0;
  for (i = 1; i < n; i++)
    C[i] = B[i - 1] + 1.0;
#pragma endscop
}
