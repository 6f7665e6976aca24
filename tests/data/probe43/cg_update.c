/* Nekbone cg.f inner iteration, C port: x = x + alpha p; r = r - alpha w; rtr = glsc3(r, c, r) */
double cg_update(int n, double *x, double *p, double *r, double *w, double *c, double alpha)
{
  int i;
  double rtr;
  for (i = 0; i < n; i++) {
    x[i] = x[i] + alpha * p[i];
    r[i] = r[i] - alpha * w[i];
  }
  rtr = 0.0;
  for (i = 0; i < n; i++)
    rtr += r[i] * c[i] * r[i];
  return rtr;
}
