/* Parboil lbm's margin: the region writes a neighbour cell before the pointer it is given */
void push(int n, const float *src, float *dst)
{
  for (int i = 1; i < n; i++)
    dst[i - 3] = src[i];
}
