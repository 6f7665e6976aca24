/* tiny-AES-c's SubBytes: the S-box is read through a helper that returns the table element. */
#include <stdint.h>
static const uint8_t sbox[256] = { 0x63, 0x7c, 0x77, 0x7b /* ... the rest are 0 here */ };
static uint8_t getSBoxValue(uint8_t num)
{
  return sbox[num];
}
void SubBytes(uint8_t st[4][4])
{
  uint8_t i, j;
  for(i = 0; i < 4; ++i)
    for(j = 0; j < 4; ++j)
      st[j][i] = getSBoxValue(st[j][i]);
}
