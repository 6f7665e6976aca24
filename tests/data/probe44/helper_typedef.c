typedef float real;
static inline real avg(real a, real b) { return (a + b) / 2; }
void f(int n, const real *a, real *b) {
  for (int i = 0; i < n - 1; i++)
    b[i] = avg(a[i], a[i + 1]);
}
