static long f(int x) { return x; }
void k(long n, double *a) {
  long i;
#pragma scop
  for (i = 0; i < n; i++)
    if (f(i + 4294967296L) < 3) a[i] = a[i] + 1.0;
#pragma endscop
}
