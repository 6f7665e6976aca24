void gemm(int n, float *A, float *B, float *C)
{
#pragma omp target teams distribute parallel for collapse(2) map(to: A[0:n*n], B[0:n*n]) map(tofrom: C[0:n*n])
#pragma scop
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k)
        sum += A[i*n+k] * B[k*n+j];
      C[i*n+j] = sum;
    }
#pragma endscop
}
