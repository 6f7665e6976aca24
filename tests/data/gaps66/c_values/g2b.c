#define N 21
double a[64], b[64];
void kernel(void)
{
  int i;
  int m = N - 19;
#pragma scop
  for (i = 0; i < N; i++)
    a[i + 2] = a[i + m] * 0.5 + b[i];
#pragma endscop
}
