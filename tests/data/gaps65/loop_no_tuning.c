void scale(int n, double *x, double *y) {
  int i;
/*@ begin Loop (
  transform Unroll(ufactor=UF)
  for (i=0; i<=n-1; i++)
    y[i] = 2.0*x[i];
) @*/
  for (i=0; i<=n-1; i++)
    y[i] = 2.0*x[i];
/*@ end @*/
}
