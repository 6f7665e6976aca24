static inline unsigned long long rdtsc(void) {
  unsigned lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
void f(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i];
#pragma endscop
}
