#include "ssat_hdr.h"
void f(const int8_t *a, int8_t *b, int n) {
    for (int i = 0; i < n; i++) b[i] = (int8_t) sat8(a[i] * 3);
}
