void g(int n, double *a) {
  int i;
  _Pragma("omp parallel for")
  for (i = 0; i < n; i++) a[i] = 0;
}
void f(int n, double *a, double *b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i];
#pragma endscop
}
