/* Minimal form (variant: the later function defines SRC only #ifndef SRC) of x264 common/dct.c's sub8x8_dct8 / add8x8_idct8: macros defined and
 * #undef'd around each loop of a region, redefined with another arity later in the file. */
void first(short dct[64], short tmp[64])
{
#define SRC(x) tmp[x*8+i]
#define DST(x) tmp[x*8+i]
    for( int i = 0; i < 8; i++ )
        DST(0) = SRC(0) + SRC(7);
#undef SRC
#undef DST

#define SRC(x) tmp[i*8+x]
#define DST(x) dct[x*8+i]
    for( int i = 0; i < 8; i++ )
        DST(0) = SRC(0) - SRC(7);
#undef SRC
#undef DST
}

void second(unsigned char *dst, short dct[64])
{
#ifndef SRC
#define SRC(x)     dct[x*8+i]
#endif
#define DST(x,rhs) dst[i + x*32] = (rhs)
    for( int i = 0; i < 8; i++ )
        DST(0, SRC(0) >> 6);
#undef SRC
#undef DST
}
