#define STORE2(p, v) \
  do { \
    (p)[0] = (unsigned char)(v); \
    (p)[1] = (unsigned char)((v) >> 8); \
  } while (0)

void f(unsigned char out[64], const unsigned int w[32])
{
  int i;
  for (i = 0; i < 32; ++i) STORE2(out + 2 * i, w[i]);
}
