#ifndef SW4_H
#define SW4_H
typedef double float_sw4;
#define SW4_FLT(x) (x)
#endif
