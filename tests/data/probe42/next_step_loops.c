/* NPB LU ssor shape: the region sits in the time-step loop; every later use of i, j
   (the next step's loops) writes them first */
double a[64][64], b[64];
void f(int n, int niter)
{
  int i, j, istep;
  for (istep = 1; istep <= niter; istep++) {
    for (i = 0; i < n; i++)
      b[i] = 0.0;
#pragma scop
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        a[i][j] = a[i][j] * 2.0 + b[j];
#pragma endscop
  }
}
