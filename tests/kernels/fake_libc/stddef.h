#ifndef LX_FAKE_STDDEF_H
#define LX_FAKE_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL ((void *)0)
#endif
