#ifndef __TYPE_H__
#define __TYPE_H__

typedef enum { false, true } logical;
typedef struct { 
  double real;
  double imag;
} dcomplex;

#endif //__TYPE_H__
