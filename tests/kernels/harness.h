/* Test harness shared by the kernel corpus.
 *
 * Every kernel fills its arrays from one seeded generator, runs its region once and prints
 * `NAME <fnv1a-64>` per array the region may write.  The original and a transformed copy must
 * print the same lines bit for bit, so everything here is deterministic and portable: no
 * time, no addresses, no libc random().
 *
 * Kept to plain C99 (no GNU extensions, no varargs) so that pycparser can parse a
 * preprocessed kernel.
 */
#ifndef LX_HARNESS_H
#define LX_HARNESS_H

#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>

static uint64_t lx_state = 0;

static void lx_seed(uint64_t s)
{
    lx_state = s;
}

/* splitmix64: full 64-bit period, good enough statistics, trivially reproducible anywhere. */
static uint64_t lx_next(void)
{
    uint64_t z;
    lx_state += 0x9E3779B97F4A7C15ULL;
    z = lx_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0.5, 1.5): never zero, so a missed write or a dropped term changes the hash,
 * and products/quotients stay far from overflow and denormals. 53 bits, exactly representable. */
static double lx_rand(void)
{
    return 0.5 + (double)(lx_next() >> 11) * (1.0 / 9007199254740992.0);
}

/* The float variant draws 24 bits so the value is exact: rounding a double near 1.5 to float
 * could produce 1.5f itself. */
static float lx_randf(void)
{
    return 0.5f + (float)(lx_next() >> 40) * (1.0f / 16777216.0f);
}

static void lx_fill_double(double *p, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        p[k] = lx_rand();
}

static void lx_fill_float(float *p, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        p[k] = lx_randf();
}

/* Ints in [lo, hi]; the kernels keep them small so no signed overflow can occur. */
static void lx_fill_int_range(int *p, size_t n, int lo, int hi)
{
    size_t k;
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    for (k = 0; k < n; k++)
        p[k] = lo + (int)(lx_next() % span);
}

/* Ints in [1, 64]. */
static void lx_fill_int(int *p, size_t n)
{
    lx_fill_int_range(p, n, 1, 64);
}

/* FNV-1a 64 over the raw bytes: compares results bit for bit (including -0.0 and NaN
 * payloads) without printing whole arrays. */
static void lx_dump(const char *name, const void *p, size_t bytes)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xCBF29CE484222325ULL;
    size_t k;
    for (k = 0; k < bytes; k++) {
        h ^= (uint64_t)b[k];
        h *= 0x100000001B3ULL;
    }
    printf("%s %016llx\n", name, (unsigned long long)h);
}

#endif /* LX_HARNESS_H */
