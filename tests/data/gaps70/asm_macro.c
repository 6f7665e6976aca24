#define STORE(p, v) __asm__ __volatile__("movsd %1, %0" : "=m"(p) : "x"(v))
void kern(int n, double *a, double *b, double *c) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      c[i*n + j] = b[j*n + i] + 1.0;
      STORE(a[i*n + j], c[i*n + j] * 2.0);
    }
#pragma endscop
}
