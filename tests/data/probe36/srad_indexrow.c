/* a read-only array read through an index array times a row length plus an in-row index
   (Rodinia srad: J[iN[i] * cols + j]); J is never written in the region */
void f(int rows, int cols, const float *J, float *d, const int *iN) {
#pragma scop
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      d[i * cols + j] = J[iN[i] * cols + j] - J[i * cols + j];
#pragma endscop
}
