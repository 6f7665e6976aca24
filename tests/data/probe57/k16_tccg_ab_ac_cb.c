/* TCCG #13 ab-ac-cb: row-major C[b][a] += A[c][a] * B[b][c] (the GEMM-shaped contraction), #define'd extents */
#define NA 32
#define NB 16
#define NC 32
double C[NB][NA], A[NC][NA], B[NB][NC];
void tccg_ab_ac_cb(void)
{
  int a, b, c;
#pragma scop
  for (b = 0; b < NB; b++)
    for (a = 0; a < NA; a++)
      for (c = 0; c < NC; c++)
        C[b][a] += A[c][a] * B[b][c];
#pragma endscop
}
