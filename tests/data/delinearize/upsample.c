/* Halide's local_laplacian upsample in x: dn is only read, its in-row index x/2 - 1 or x/2 + 1
 * by the parity of x. */
void up(int w, int h, int hw, const float *dn, float *upx)
{
    for (int y = 0; y < h; y++)
        for (int x = 2; x < w - 2; x++)
            upx[y * w + x] = 0.25f * dn[y * hw + x / 2 - 1 + 2 * (x % 2)] + 0.75f * dn[y * hw + x / 2];
}
