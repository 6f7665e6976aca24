typedef double Real_t;
static inline Real_t vol(Real_t x0, Real_t x1)
{
  double d = x1 - x0;
  return d * d;
}
void f(int n, const int *nl, const double *x, double *v)
{
  for (int k = 0; k < n; ++k) {
    int a = nl[2*k], b = nl[2*k+1];
    v[k] = vol(x[a], x[b]);
  }
}
