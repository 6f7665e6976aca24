#define HALO 2
void s(const double *in, double *out, int n, int jstride)
{
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int idx = i + HALO + (j + HALO) * jstride;
      out[idx] = in[idx - 2 * jstride];
    }
}
