/* Minimal form of resize.c's vertical weight: a per-row scalar set between the host loop y and
   the mapped x loops (VResizeLinear's beta[y]). */
void row_scale(const float *src, float *dst, int w, int h, const float *beta)
{
  int x, y;
  for (y = 0; y < h; y++) {
    float fy = beta[y];
    for (x = 0; x < w; x++)
      dst[y * w + x] = fy * src[y * w + x];
  }
}
