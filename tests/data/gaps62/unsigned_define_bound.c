#define M 5u
void kern(int n, double A[64][64])
{
  int i, j;
#pragma scop
  for (i = -3; i < n; i++)
    for (j = 0; j < 3; j++)
      if (i + 4 <= M)
        A[i + 24][j] = i + j;
#pragma endscop
}
