/* Minimal form of tiny-AES-c's state: typedef uint8_t state_t[4][4]; static state_t* state; */
#include <stdint.h>
typedef uint8_t state_t[4][4];
static state_t* state;

void AddRoundKey(const uint8_t *RoundKey)
{
  uint8_t i,j;
  for(i=0;i<4;++i)
  {
    for(j = 0; j < 4; ++j)
    {
      (*state)[i][j] ^= RoundKey[i * 4 + j];
    }
  }
}
