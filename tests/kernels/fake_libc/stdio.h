#ifndef LX_FAKE_STDIO_H
#define LX_FAKE_STDIO_H
#include <stddef.h>
typedef struct lx_fake_file FILE;
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int puts(const char *s);
#endif
