static int f(short x) { return x; }
void k(int n, float A[64], const float B[64])
{
#pragma scop
  for (int i = 0; i < f(n); i++)
    A[i] = B[i] * 2.0f;
#pragma endscop
}
