/* PolyBench/GPU correlation's last statement: symmat[M*(M+1) + M] = 1.0; after the j1 loop */
#define M 8
void corr_tail(float *symmat)
{
  int j1;
#pragma scop
  for (j1 = 1; j1 < M; j1++)
    symmat[j1*(M+1) + j1] = 1.0;
  symmat[M*(M+1) + M] = 1.0;
#pragma endscop
}
