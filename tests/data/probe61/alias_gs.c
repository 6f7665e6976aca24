// Alias probe modelled on hpgmg gsrb.c in-place branch: x_n and x_np1 are both set to the same vector.
void gs_alias(int n, double *x, const double *rhs)
{
  int i;
  const double *x_n = x;
  double *x_np1 = x;
  for (i = 1; i < n - 1; i++)
    x_np1[i] = 0.5 * (x_n[i - 1] + x_n[i + 1]) + rhs[i];
}
