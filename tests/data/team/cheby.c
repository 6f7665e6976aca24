void cheby_update(int *nn, double *u, double *p)
{
  int n = *nn;
  int i;

#pragma omp parallel
 {
#pragma scop
#pragma omp for
  for (i = 0; i < n; i++)
    u[i] = u[i] + p[i];
#pragma endscop
 }
}
