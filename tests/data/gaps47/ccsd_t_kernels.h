/* minimal stand-in for nwchem-tce-triples-kernels' headers (fortran_integer.h, pragma-openmp.h) */
#ifndef CCSD_T_KERNELS_H
#define CCSD_T_KERNELS_H
typedef int fint;
#define OMP_PARALLEL_FOR_COLLAPSE4 _Pragma("omp parallel for collapse(4)")
#define PRAGMA_IVDEP _Pragma("GCC ivdep")
#define PRAGMA_SIMD _Pragma("omp simd")
#endif
