"""What looptx's preprocessor gives a file for the system headers it includes: the types,
constants and macros that decide how the code parses (the real headers are not read)."""
from __future__ import annotations

FAKE_TYPEDEFS = """\
typedef unsigned long size_t; typedef long ssize_t; typedef long ptrdiff_t; typedef long intptr_t;
typedef unsigned long uintptr_t; typedef int wchar_t; typedef struct __lx_FILE FILE;
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef long intmax_t; typedef unsigned long uintmax_t;
typedef long clock_t; typedef long time_t; typedef void *va_list;
typedef long suseconds_t; typedef int pthread_t; typedef int omp_lock_t;
typedef signed char int_least8_t; typedef short int_least16_t; typedef int int_least32_t;
typedef long int_least64_t; typedef unsigned char uint_least8_t; typedef unsigned short uint_least16_t;
typedef unsigned int uint_least32_t; typedef unsigned long uint_least64_t;
typedef signed char int_fast8_t; typedef long int_fast16_t; typedef long int_fast32_t; typedef long int_fast64_t;
typedef unsigned char uint_fast8_t; typedef unsigned long uint_fast16_t; typedef unsigned long uint_fast32_t;
typedef unsigned long uint_fast64_t; typedef long off_t; typedef unsigned int uint; typedef unsigned short ushort;
typedef unsigned long ulong; typedef unsigned char u_char; typedef unsigned short u_short; typedef unsigned int u_int;
typedef unsigned long u_long; typedef unsigned char u_int8_t; typedef unsigned short u_int16_t;
typedef unsigned int u_int32_t; typedef unsigned long u_int64_t; typedef float float_t; typedef double double_t;
""" + "".join(f"typedef int {t}; " for t in (
    "pid_t", "uid_t", "gid_t", "id_t", "mode_t", "dev_t", "ino_t", "nlink_t", "blksize_t", "blkcnt_t",
    "key_t", "useconds_t", "clockid_t", "socklen_t", "nfds_t", "sig_atomic_t", "wint_t", "wctype_t",
    "wctrans_t", "fexcept_t", "regoff_t", "in_addr_t", "in_port_t", "sa_family_t", "mqd_t",
    "pthread_key_t", "pthread_once_t", "pthread_spinlock_t", "omp_sched_t", "omp_proc_bind_t")) + \
    "typedef unsigned short char16_t; typedef unsigned int char32_t; typedef void *timer_t; " \
    "typedef long double max_align_t; typedef float _Float16; typedef float _Float32; " \
    "typedef double _Float64; typedef long double _Float128; typedef unsigned char __mmask8; " \
    "typedef unsigned short __mmask16; typedef unsigned int __mmask32; typedef unsigned long __mmask64; " \
    "typedef struct { int quot; int rem; } div_t; typedef struct { long quot; long rem; } ldiv_t; " \
    "typedef struct { long long quot; long long rem; } lldiv_t; typedef struct { long quot; long rem; } imaxdiv_t; " \
    "typedef struct { int rm_so; int rm_eo; } regmatch_t;\n" + \
    "".join(f"typedef struct __lx_{t} {t}; " for t in (
        # opaque where the code only declares and passes them (sched_setaffinity's mask, a lock)
        "cpu_set_t", "sigset_t", "pthread_mutex_t", "pthread_mutexattr_t", "pthread_cond_t",
        "pthread_condattr_t", "pthread_attr_t", "pthread_rwlock_t", "pthread_rwlockattr_t",
        "pthread_barrier_t", "pthread_barrierattr_t", "jmp_buf", "sigjmp_buf", "fenv_t", "regex_t",
        "mbstate_t", "locale_t", "fpos_t", "DIR", "glob_t", "siginfo_t", "stack_t", "sem_t",
        "omp_nest_lock_t", "__m64", "__m128", "__m128d", "__m128i", "__m128h", "__m256", "__m256d",
        "__m256i", "__m256h", "__m512", "__m512d", "__m512i", "__m512h")) + "\n"
FAKE_DEFINES = """\
#define NULL 0
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define CLOCKS_PER_SEC 1000000
#define INFINITY (1.0/0.0)
#define NAN (0.0/0.0)
#define HUGE_VAL (1.0/0.0)
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define DBL_MAX 1.7976931348623157e308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define FLT_MAX 3.40282347e38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-07F
#define INT_MAX 2147483647
#define INT_MIN (-2147483647-1)
#define LONG_MAX 9223372036854775807L
#define LONG_MIN (-9223372036854775807L-1)
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-9223372036854775807LL-1)
#define ULLONG_MAX 18446744073709551615ULL
#define UINT_MAX 4294967295U
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN (-128)
#define CHAR_MAX 127
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647-1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L-1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#define SIZE_MAX 18446744073709551615UL
#define PTRDIFF_MAX 9223372036854775807L
#define FLT_DIG 6
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define FLT_MANT_DIG 24
#define LDBL_MAX 1.18973149535723176502e+4932L
#define LDBL_EPSILON 1.08420217248550443401e-19L
#define HUGE_VALF (1.0f/0.0f)
#define M_SQRT2 1.41421356237309504880
#define M_LN2 0.69314718055994530942
#define M_PI_2 1.57079632679489661923
#define M_1_PI 0.31830988618379067154
#define restrict
#define __restrict
#define __restrict__
#define __inline inline
#define __attribute__(x)
#define __extension__
#define __const const
#define __volatile__
#define __asm__(...) __lx_asm()
#define __asm(...) __lx_asm()
#define asm(...) __lx_asm()
#define stdout ((FILE*)0)
#define stderr ((FILE*)0)
#define assert(x) ((void)0)
"""


# What a libc header defines that changes how the code parses: `double complex` is C99's
# spelling of `double _Complex` through this macro of <complex.h>.
# Its imaginary unit is glibc's own spelling, not `1.0iF`, which the C parser cannot read.
HEADER_MACROS = {"complex.h": "#ifndef complex\n#define complex _Complex\n#endif\n"
                              "#define _Complex_I __builtin_complex(0.0f, 1.0f)\n#define I _Complex_I\n"
                              "#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))\n"
                              "#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))\n"
                              "#define CMPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))\n",
                 # only <stdbool.h>: NPB's `typedef enum { false, true } logical;` follows <stdio.h>
                 "stdbool.h": "#ifndef __bool_true_false_are_defined\n#define __bool_true_false_are_defined 1\n"
                              "#define bool _Bool\n#define true 1\n#define false 0\n#endif\n"}
