// Alias probe 2: two views of one vector at different offsets (hpgmg's vectors[id] + ghosts*(...))
void gs_alias2(int n, double *x, const double *rhs)
{
  int i;
  const double *x_n = x + 1;
  double *x_np1 = x + 1;
  for (i = 1; i < n - 2; i++)
    x_np1[i] = 0.5 * (x_n[i - 1] + x_n[i + 1]) + rhs[i];
}
