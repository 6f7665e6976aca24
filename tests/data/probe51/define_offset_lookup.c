/* Minimal form of libjpeg jccolor.c rgb_ycc_convert: ctab[r + G_Y_OFF] with r read from the row. */
#define G_Y_OFF 256
void conv(const long ctab[512], const unsigned char inptr[300], unsigned char outptr0[100])
{
  int r, g;
  int col;
  for (col = 0; col < 100; col++) {
    r = inptr[col*3];
    g = inptr[col*3 + 1];
    outptr0[col] = (unsigned char) ((ctab[r] + ctab[g + G_Y_OFF]) >> 16);
  }
}
