/* two regions in one function, as NPB LU rhs() has (the rho_i nest, then the xi fluxes) */
double a[12][12], b[12][12], flux[12];
int n;
void f()
{
  int i, j;
  double t, u21;
#pragma scop
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      t = 1.0 / a[j][i];
      b[j][i] = t;
    }
#pragma endscop
#pragma scop
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      u21 = a[j][i] * b[j][i];
      flux[i] = u21 * u21;
    }
#pragma endscop
}
