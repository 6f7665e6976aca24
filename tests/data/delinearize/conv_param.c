/* The convolution with its sizes as arguments: rows of w + (fw/2)*2, the image and its border
 * of (fw/2) pixels on each side. */
void conv(int w, int h, int fw, int fh, float *out, const float *in, const float *filter)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = 0; j < fh; j++)
                for (int i = 0; i < fw; i++)
                    sum += in[(y + j) * (w + (fw / 2) * 2) + (x + i)] * filter[j * fw + i];
            out[y * w + x] = sum;
        }
}
