#ifndef F
#define F(a) ((a) * 2.0)
#endif
void kern(int n, double *x, double *y)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = F(x[i]) + y[i];
#pragma endscop
}
