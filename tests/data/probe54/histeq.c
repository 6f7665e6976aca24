/* Histogram equalisation of an 8-bit grey image, as the many C image-processing tutorials and
   small libraries write it (written from memory): histogram, cumulative histogram, LUT, apply. */
void histeq(const unsigned char *img, unsigned char *out, int npix,
            int hist[256], int cdf[256], unsigned char lut[256], int cdf_min)
{
  int i;
  for (i = 0; i < 256; i++)
    hist[i] = 0;
  for (i = 0; i < npix; i++)
    hist[img[i]]++;
  cdf[0] = hist[0];
  for (i = 1; i < 256; i++)
    cdf[i] = cdf[i - 1] + hist[i];
  for (i = 0; i < 256; i++)
    lut[i] = (unsigned char)((cdf[i] - cdf_min) * 255 / (npix - cdf_min));
  for (i = 0; i < npix; i++)
    out[i] = lut[img[i]];
}

void histeq_apply(const unsigned char *img, unsigned char *out, int npix,
                  const int cdf[256], unsigned char lut[256], int cdf_min)
{
  int i;
  for (i = 0; i < 256; i++)
    lut[i] = (unsigned char)((cdf[i] - cdf_min) * 255 / (npix - cdf_min));
  for (i = 0; i < npix; i++)
    out[i] = lut[img[i]];
}

void histeq_lut_only(const unsigned char *img, unsigned char *out, int npix,
                     const unsigned char lut[256])
{
  int i;
  for (i = 0; i < npix; i++)
    out[i] = lut[img[i]];
}
