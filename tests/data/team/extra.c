void scale(int n, double *a, double *s)
{
  int i;
#pragma omp parallel
  {
#pragma scop
    s[0] = 2.0;
#pragma omp for
    for (i = 0; i < n; i++)
      a[i] = a[i] * 3.0;
#pragma endscop
  }
}
