/* 3x3 "same" convolution, NCHW, zero padding by a guard, float, as in darknet/caffe CPU code */
#define KS 3
#define PAD 1
void convpad(int C, int K, int H, int W, const float *restrict in, const float *restrict wt, float *restrict out)
{
  for (int k = 0; k < K; k++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        float acc = 0.0f;
        for (int c = 0; c < C; c++)
          for (int r = 0; r < KS; r++)
            for (int s = 0; s < KS; s++) {
              int yy = y + r - PAD, xx = x + s - PAD;
              if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                acc += wt[((k * C + c) * KS + r) * KS + s] * in[(c * H + yy) * W + xx];
            }
        out[(k * H + y) * W + x] = acc;
      }
}
