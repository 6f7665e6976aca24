/* A cut-down PolyBench 4 header: the macro style real PolyBench kernels use. */
#ifndef POLYBENCH_STYLE_H
#define POLYBENCH_STYLE_H
#include "harness.h"
#ifndef DATA_TYPE
# define DATA_TYPE double
#endif
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) x
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define POLYBENCH_1D(var, dim1, ddim1) var[dim1]
#endif
