void scale(int *nn, double *a, double *b)
{
  int n = *nn;
  int i;
#pragma omp parallel
 {
#pragma omp for
#pragma scop
  for (i = 0; i < n; i++)
    b[i] = 2.0 * a[i];
#pragma endscop
 }
}
