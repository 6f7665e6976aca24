void f(int n, double A[n], double B[n]) {
  int i;
#pragma scop
  for (i = 1; i < n; i++)
    A[i] = A[i-1] + B[i];
#pragma endscop
}
