/* camera_pipe (Halide apps/camera_pipe) reference: deinterleave a GRBG Bayer mosaic and
 * interpolate green at the red and blue sites (Malvar-style edge-directed choice). */
#include <stdint.h>
#include <stdlib.h>

typedef int16_t i16;

static inline i16 avg(i16 a, i16 b) { return (i16)((a + b + 1) >> 1); }
static inline i16 absd(i16 a, i16 b) { return a > b ? a - b : b - a; }

void demosaic(int width, int height, int raw_stride, const i16 *raw,
              i16 *g_gr, i16 *r_r, i16 *b_b, i16 *g_gb, i16 *g_r, i16 *g_b)
{
    int x, y;
    const int hw = width / 2, hh = height / 2;
    for (y = 0; y < hh; y++) {
        for (x = 0; x < hw; x++) {
            g_gr[y * hw + x] = raw[(2 * y) * raw_stride + 2 * x];
            r_r[y * hw + x]  = raw[(2 * y) * raw_stride + 2 * x + 1];
            b_b[y * hw + x]  = raw[(2 * y + 1) * raw_stride + 2 * x];
            g_gb[y * hw + x] = raw[(2 * y + 1) * raw_stride + 2 * x + 1];
        }
    }
    for (y = 1; y < hh - 1; y++) {
        for (x = 1; x < hw - 1; x++) {
            i16 gv_r  = avg(g_gb[(y - 1) * hw + x], g_gb[y * hw + x]);
            i16 gvd_r = absd(g_gb[(y - 1) * hw + x], g_gb[y * hw + x]);
            i16 gh_r  = avg(g_gr[y * hw + x + 1], g_gr[y * hw + x]);
            i16 ghd_r = absd(g_gr[y * hw + x + 1], g_gr[y * hw + x]);
            g_r[y * hw + x] = ghd_r < gvd_r ? gh_r : gv_r;

            i16 gv_b  = avg(g_gr[(y + 1) * hw + x], g_gr[y * hw + x]);
            i16 gvd_b = absd(g_gr[(y + 1) * hw + x], g_gr[y * hw + x]);
            i16 gh_b  = avg(g_gb[y * hw + x - 1], g_gb[y * hw + x]);
            i16 ghd_b = absd(g_gb[y * hw + x - 1], g_gb[y * hw + x]);
            g_b[y * hw + x] = ghd_b < gvd_b ? gh_b : gv_b;
        }
    }
}
