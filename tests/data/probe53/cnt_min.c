/* minimal: WRF-style its..ite bounds, cuda sizes given: does the host check the counts? */
void scale(int its, int ite, float *x, float *y)
{
  int i;
  for (i = its; i <= ite; i++)
    y[i] = 2.f * x[i];
}
