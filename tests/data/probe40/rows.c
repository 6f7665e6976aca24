/* SHOC Stencil2D's Matrix2D<T>::GetData() gives T** row pointers; here the smallest such loop */
void scale(float **a, float **b, int n, int m)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] = 2.0f * a[i][j];
#pragma endscop
}
