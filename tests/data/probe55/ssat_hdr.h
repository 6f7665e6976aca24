#include <stdint.h>
static inline int32_t sat8(int32_t val)
{
    if (val > 127) return 127;
    else if (val < -128) return -128;
    return val;
}
