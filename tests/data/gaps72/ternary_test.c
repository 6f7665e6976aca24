void kern(int n, double *restrict x, double *restrict b, double *restrict y)
{
#pragma scop
for (int i = 0; i < n; i++) {

  y[i] = (i >= 1 ? 1 : 0) ? x[i-1] : 0.0;
}
#pragma endscop
}
