#include <stddef.h>
#include <stdint.h>
/* parallel_for_ range body: a 32-bit counter over [start, end) of size_t */
void range_body(const float *src, float *dst, size_t start, size_t end)
{
  unsigned i;
#pragma scop
  for (i = start; i < end; i++)
    dst[i - start] = 2.0f * src[i - start] + 1.0f;
#pragma endscop
}
