void kernel(int N, double x[N + 4], double y[N + 4]) {
  int i;
#pragma scop
  for (i = 2; i < N + 2; i++)
    x[i] = y[i] + 1.0;
  for (i = 2; i < N + 2; i++)
    y[i] = x[N + 3 - i] * 2.0;
#pragma endscop
}
