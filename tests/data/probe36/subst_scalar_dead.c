/* Rodinia srad's shape: a function-level int k assigned in the loop body, used only as a subscript;
   the original OpenMP pragma lists it: private(i, j, k, ...) */
void f(int n, int m, double *a) {
  int k;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      k = i * m + j;
      a[k] = 2.0 * a[k];
    }
#pragma endscop
}
