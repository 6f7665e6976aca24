#include <math.h>
int Inject(float *restrict u_data, float *restrict src_data, float *restrict src_coords_data, const int nx, const int ny, const int np, const float o_x, const float o_y, const int p_src_M, const int p_src_m, const int time, const int x_M, const int x_m, const int y_M, const int y_m)
{
  float (*restrict u)[nx][ny] __attribute__ ((aligned (64))) = (float (*)[nx][ny]) u_data;
  float (*restrict src)[np] __attribute__ ((aligned (64))) = (float (*)[np]) src_data;
  float (*restrict src_coords)[2] __attribute__ ((aligned (64))) = (float (*)[2]) src_coords_data;
  int t2 = (time + 1)%(3);
  for (int p_src = p_src_m; p_src <= p_src_M; p_src += 1)
  {
    float posx = -o_x + src_coords[p_src][0];
    float posy = -o_y + src_coords[p_src][1];
    int ii_src_0 = (int)(floor(1.0e-1F*posx));
    int ii_src_1 = (int)(floor(1.0e-1F*posy));
    if (ii_src_0 >= x_m - 1 && ii_src_1 >= y_m - 1 && ii_src_0 <= x_M + 1 && ii_src_1 <= y_M + 1)
    {
      float r0 = 0.5F*src[time][p_src];
      #pragma omp atomic update
      u[t2][ii_src_0 + 4][ii_src_1 + 4] += r0;
    }
  }
  return 0;
}
