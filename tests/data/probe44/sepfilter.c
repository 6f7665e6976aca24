/* OpenCV 1.x-style separable 3x3 filter on 8-bit images with row steps, fixed-point
 * coefficients (sum 256) and saturation, as in cvSmooth / cv::sepFilter2D's 8u path. */
#include <stdlib.h>

typedef unsigned char uchar;

#define CV_DESCALE(x, n)  (((x) + (1 << ((n) - 1))) >> (n))
#define CV_CAST_8U(t)  (uchar)(!((t) & ~255) ? (t) : (t) > 0 ? 255 : 0)

void icvSepFilter3x3_8u_C1R(const uchar *src, int srcstep, uchar *dst, int dststep,
                            int width, int height, const int *kx, const int *ky, int *buf)
{
    int x, y;
    /* horizontal pass into a 32-bit buffer of the same size */
    for (y = 0; y < height; y++)
        for (x = 1; x < width - 1; x++)
            buf[y * width + x] = kx[0] * src[y * srcstep + x - 1] + kx[1] * src[y * srcstep + x] +
                                 kx[2] * src[y * srcstep + x + 1];
    /* vertical pass, descale and saturate */
    for (y = 1; y < height - 1; y++)
        for (x = 1; x < width - 1; x++) {
            int t = CV_DESCALE(ky[0] * buf[(y - 1) * width + x] + ky[1] * buf[y * width + x] +
                               ky[2] * buf[(y + 1) * width + x], 16);
            dst[y * dststep + x] = CV_CAST_8U(t);
        }
}
