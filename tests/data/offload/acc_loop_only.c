void scale(int n, double *x)
{
#pragma acc loop gang
#pragma scop
  for (int i = 0; i < n; i++)
    x[i] = 2.0 * x[i];
#pragma endscop
}
