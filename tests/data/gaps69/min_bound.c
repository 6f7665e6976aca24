void kernel(int n, long m, double *a) {
  long j; int k;
#pragma scop
  for (j = 0; j < (n < m ? n : m); j++)
    for (k = j + 1; k < n; k++)
      a[k] += a[j];
#pragma endscop
}
