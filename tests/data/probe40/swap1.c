/* Parboil stencil main.c / SHOC Stencil2D: a time loop that swaps the two grids after each sweep */
void jacobi1d(float *a, float *b, int n, int steps)
{
  int t, i;
#pragma scop
  for (t = 0; t < steps; t++) {
    for (i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
    float *tmp = a;
    a = b;
    b = tmp;
  }
#pragma endscop
}
