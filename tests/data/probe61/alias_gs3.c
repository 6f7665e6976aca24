// Alias probe 3: the vector table of hpgmg (vectors[id]) read twice with the same id
void gs_alias3(int n, double **vectors, int x_id, const double *rhs)
{
  int i;
  const double *x_n = vectors[x_id];
  double *x_np1 = vectors[x_id];
  for (i = 1; i < n - 1; i++)
    x_np1[i] = 0.5 * (x_n[i - 1] + x_n[i + 1]) + rhs[i];
}
