#define LS(r,s) ((r) << (s))
void ChenIDct (int *x, int *y)
{
  int i;
  int *aptr;
  int a0, b0, c0;
  for (i = 0; i < 8; i++)
    {
      aptr = x + i;
      b0 = LS (*aptr, 2);
      aptr += 8;
      a0 = LS (*aptr, 2);
      y[i] = a0 + b0;
    }
}
