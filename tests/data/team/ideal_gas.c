#include <math.h>
/* CloverLeaf's ideal_gas kernel (C version): the loops run inside the caller's team */
void ideal_gas_kernel_c_(int *xmin, int *xmax, int *ymin, int *ymax,
                         double *density, double *energy, double *pressure, double *soundspeed)
{
  int x_min = *xmin;
  int x_max = *xmax;
  int y_min = *ymin;
  int y_max = *ymax;
  int j, k;
  double sound_speed_squared, v, pressurebyenergy, pressurebyvolume;

#pragma omp parallel
 {
#pragma scop
#pragma omp for private(v, pressurebyenergy, pressurebyvolume, sound_speed_squared, j)
  for (k = y_min; k <= y_max; k++) {
#pragma ivdep
    for (j = x_min; j <= x_max; j++) {
      v = 1.0 / density[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)];
      pressure[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)] =
          (1.4 - 1.0) * density[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)]
          * energy[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)];
      pressurebyenergy = (1.4 - 1.0) * density[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)];
      pressurebyvolume = -density[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)]
          * pressure[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)];
      sound_speed_squared = v * v * (pressure[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)]
          * pressurebyenergy - pressurebyvolume);
      soundspeed[(x_max + 4) * (k - (y_min - 2)) + (j) - (x_min - 2)] = sqrt(sound_speed_squared);
    }
  }
#pragma endscop
 }
}
