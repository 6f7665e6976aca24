static int f(short x) { return x; }
void k(int n, double *a) {
  int i;
#pragma scop
  for (i = 0; i < f(n); i++)
    a[i] = a[i] + 1.0;
#pragma endscop
}
