#include <stdint.h>
typedef int16_t e_s16;     /* EEMBC-style 16-bit sizes and counters */

void scale(e_s16 *x, e_s16 *y, e_s16 n)
{
    e_s16 i;
    for (i = 0; i < n; i++)
        y[i] = x[i] >> 1;
}
