static int f(short x) { return x; }
void k(int n, double *a) {
  int i;
#pragma scop
  for (i = 1; i < n; i++)
    a[f(i + 65535)] = a[i] * 2.0 + 1.0;
#pragma endscop
}
// CALL: k(n, a)
// BUF: a d
