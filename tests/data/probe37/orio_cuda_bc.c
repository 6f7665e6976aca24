/* minimal: Orio CUDA directive on a loop whose iterations all update s[j] (bicg's s = A^T r) */
void f(double *A, double *r, double *s, int nx, int ny) {
  int i, j;
  /*@ begin Loop(transform CUDA(threadCount=32, blockCount=4)
  for (i = 0; i <= nx-1; i++)
    for (j = 0; j <= ny-1; j++)
      s[j] = s[j] + r[i]*A[i*ny+j];
  ) @*/
  for (i = 0; i <= nx-1; i++)
    for (j = 0; j <= ny-1; j++)
      s[j] = s[j] + r[i]*A[i*ny+j];
  /*@ end @*/
}
