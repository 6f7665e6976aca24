/* resize.c's block-uniform work (`int sy = yofs[y]; float fy = beta[y];` between the block loop
   y and the thread loop x), in a form the harness validates: every thread computes the row's
   weights itself, as in CUDA-CHiLL. */
void row_blend(const float *src, float *dst, int w, int h, const float *beta)
{
  int x, y;
  for (y = 0; y < h; y++) {
    float fy = beta[y];
    float gy = 1.f - fy;
    for (x = 0; x < w; x++)
      dst[y * w + x] = gy * src[y * w + x] + fy * src[(y + 1) * w + x];
  }
}

/* not so: the row's first element is written outside the thread loop */
void row_first(const float *src, float *dst, int w, int h, const float *beta)
{
  int x, y;
  for (y = 0; y < h; y++) {
    dst[y * w] = beta[y];
    for (x = 1; x < w; x++)
      dst[y * w + x] = beta[y] * src[y * w + x];
  }
}

/* not so: the uniform statement reads what the threads of its block write */
void row_prev(const float *src, float *dst, int w, int h, const float *beta)
{
  int x, y;
  for (y = 0; y < h; y++) {
    float d = dst[y * w + 3];
    for (x = 0; x < w; x++)
      dst[y * w + x] = d + src[y * w + x];
  }
}
