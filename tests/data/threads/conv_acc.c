/* 2-D convolution, 3x3 filter, valid region, with an accumulator */
void conv_acc(int h, int w, float out[h][w], const float in[h + 2][w + 2], const float f[3][3])
{
  float acc;
#pragma scop
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      acc = 0.0f;
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          acc += in[y + r][x + c] * f[r][c];
      out[y][x] = acc;
    }
#pragma endscop
}
