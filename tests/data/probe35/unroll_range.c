void blur1d(const double *in, double *out, int w)
{
  const int K = 5;
  double filt[5] = {1, 2, 3, 2, 1};
  int x;
#pragma scop
  for (x = 0; x < w; x++) {
    double s = 0.0;
    for (int f = 0; f < K; f++) {
      int ix = x - (K/2) + f;
      if (ix < 0 || ix >= w) continue;
      s += filt[f] * in[ix];
    }
    out[x] = s;
  }
#pragma endscop
}
