/* a per-element scratch array declared in the element loop (MFEM PAMassApply3D's sol_xy) */
#define Q 4
void interp2d(int ne, const double *b, const double *x, double *y)
{
  for (int e = 0; e < ne; e++) {
    double t[Q][Q];
    for (int qy = 0; qy < Q; qy++)
      for (int qx = 0; qx < Q; qx++)
        t[qy][qx] = b[qx + Q*qy] * x[qx + Q*e];
    for (int qy = 0; qy < Q; qy++)
      for (int qx = 0; qx < Q; qx++)
        y[qy + Q*e] += t[qy][qx];
  }
}
