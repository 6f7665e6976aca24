#define NB 4u
void k(int n, double A[64], double B[64])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = B[i + (NB - 5) % 3];
#pragma endscop
}
