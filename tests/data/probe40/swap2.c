/* the same after following the first message's hint ("declare it outside the region") */
void jacobi1d(float *a, float *b, int n, int steps)
{
  int t, i;
  float *tmp;
#pragma scop
  for (t = 0; t < steps; t++) {
    for (i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
    tmp = a;
    a = b;
    b = tmp;
  }
#pragma endscop
}
