/* Separable box blur, horizontal pass into a float buffer then vertical pass (written from
   memory in the style of stb/ImageMagick-era C blur code: interior only, radius R). */
#define R 2

void box_blur(int w, int h, const float *src, float *tmp, float *dst)
{
  int x, y, k;
  const float norm = 1.0f / (2 * R + 1);
  for (y = 0; y < h; y++)
    for (x = R; x < w - R; x++) {
      float acc = 0.0f;
      for (k = -R; k <= R; k++)
        acc += src[y * w + x + k];
      tmp[y * w + x] = acc * norm;
    }
  for (y = R; y < h - R; y++)
    for (x = R; x < w - R; x++) {
      float acc = 0.0f;
      for (k = -R; k <= R; k++)
        acc += tmp[(y + k) * w + x];
      dst[y * w + x] = acc * norm;
    }
}
