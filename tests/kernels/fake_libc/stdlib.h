#ifndef LX_FAKE_STDLIB_H
#define LX_FAKE_STDLIB_H
#include <stddef.h>
void *malloc(size_t n);
void free(void *p);
void abort(void);
void exit(int status);
#endif
