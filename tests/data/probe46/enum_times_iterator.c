enum { BS = 16 };
void f(int nb, float *a, float *b)
{
   for (int ib = 0; ib < nb; ib++)
      for (int i = ib*BS; i < ib*BS + BS; i++)
         a[i] = 2.0f*b[i];
}
