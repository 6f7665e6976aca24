/* OpenCV-style 16-bit row filter: steps are in bytes, rows reached through casts */
#include <stdint.h>
typedef uint16_t ushort;
typedef unsigned char uchar;

void rowFilter_16u(const uchar *src, int sstep, uchar *dst, int dstep, int width, int height, const float *kx)
{
    int x, y;
    for (y = 0; y < height; y++) {
        const ushort *S = (const ushort *)(src + y * sstep);
        ushort *D = (ushort *)(dst + y * dstep);
        for (x = 1; x < width - 1; x++) {
            float s = kx[0] * S[x - 1] + kx[1] * S[x] + kx[2] * S[x + 1];
            D[x] = (ushort)(s < 0 ? 0 : s > 65535 ? 65535 : (int)(s + 0.5f));
        }
    }
}
