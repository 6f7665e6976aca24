#define likely(x) __builtin_expect(!!(x), 1)
static inline double mag(double x, double y) { return __builtin_sqrt(__builtin_fabs(x) + y * y); }
void kern(int n, double *a, double *b, double *c) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (likely(b[j*n+i] > 0.5)) a[i*n+j] = mag(b[j*n+i], a[i*n+j]);
      b[j*n+i] = b[j*n+i] < 0.1 ? __builtin_inf() : b[j*n+i] + __builtin_powi(a[i*n+j], 2) + c[__builtin_abs(j-1)];
      a[i*n+j] += __builtin_nan("") * 0.0 + __builtin_huge_val() * 0.0;
    }
#pragma endscop
}
