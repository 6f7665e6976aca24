/* Parboil lbm's sweep in small: a loop over cells of 20 floats, with enum offsets */
#define N_CELL 20
enum { C = 0, E = 1 };
void sweep(int n, const float *src, float *dst)
{
  int i;
  for (i = 0; i < N_CELL * n; i += N_CELL)
    dst[i + C] = 2.0f * src[i + E];
}
