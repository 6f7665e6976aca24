/* Minimal form of x264 add8x8_idct8's second pass: rows of a picture FDEC_STRIDE apart. */
#define FDEC_STRIDE 32
void add_rows(unsigned char *dst, const short d[64])
{
    for( int i = 0; i < 8; i++ )
    {
        dst[i + 0*FDEC_STRIDE] = (unsigned char)(dst[i + 0*FDEC_STRIDE] + d[i*8+0]);
        dst[i + 1*FDEC_STRIDE] = (unsigned char)(dst[i + 1*FDEC_STRIDE] + d[i*8+1]);
    }
}
