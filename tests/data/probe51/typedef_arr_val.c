#include <stdint.h>
typedef uint8_t state_t[4][4];

void AddRoundKey(state_t st, const uint8_t *RoundKey)
{
  uint8_t i,j;
  for(i=0;i<4;++i)
    for(j = 0; j < 4; ++j)
      st[i][j] ^= RoundKey[i * 4 + j];
}
