void field_summary(int x_min, int x_max, int y_min, int y_max, double *volume, double *density,
                   double *energy, double *vol_out, double *mass_out, double *ie_out)
{
  int j, k;
  double vol = 0.0, mass = 0.0, ie = 0.0, cell_mass;
#pragma omp parallel
  {
#pragma scop
#pragma omp for private(j, cell_mass) reduction(+:vol, mass, ie)
    for (k = y_min; k <= y_max; k++) {
      for (j = x_min; j <= x_max; j++) {
        cell_mass = volume[(x_max + 4) * (k - y_min) + j - x_min] * density[(x_max + 4) * (k - y_min) + j - x_min];
        vol = vol + volume[(x_max + 4) * (k - y_min) + j - x_min];
        mass = mass + cell_mass;
        ie = ie + cell_mass * energy[(x_max + 4) * (k - y_min) + j - x_min];
      }
    }
#pragma omp for
    for (k = y_min; k <= y_max; k++)
      for (j = x_min; j <= x_max; j++)
        density[(x_max + 4) * (k - y_min) + j - x_min] = 2.0 * density[(x_max + 4) * (k - y_min) + j - x_min];
#pragma endscop
  }
  *vol_out = vol; *mass_out = mass; *ie_out = ie;
}
