/* two sibling nests inside the element loop (Nekbone ax_e: local_grad3, then local_grad3_t) */
void two_phase(int nelt, int n, double *u, double *D, double *x, double *w)
{
  int e, i, l;
#pragma scop
  for (e = 0; e < nelt; e++) {
    for (i = 0; i < n; i++) {
      double t = 0.0;
      for (l = 0; l < n; l++)
        t += D[i + n*l] * u[l + n*e];
      x[i + n*e] = t;
    }
    for (i = 0; i < n; i++) {
      double s = 0.0;
      for (l = 0; l < n; l++)
        s += D[l + n*i] * x[l + n*e];
      w[i + n*e] = s;
    }
  }
#pragma endscop
}
