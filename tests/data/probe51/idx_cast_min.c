/* libjpeg GETJSAMPLE(value) is ((int) (value)): the cast hides the index-array element */
typedef long INT32;
typedef unsigned char JSAMPLE;
void f(const INT32 *ctab, const JSAMPLE *inptr, JSAMPLE *outptr0, unsigned int num_cols)
{
  int r;
  unsigned int col;
  for (col = 0; col < num_cols; col++) {
    r = (int) (inptr[col]);
    outptr0[col] = (JSAMPLE) (ctab[r + 0] >> 16);
  }
}
