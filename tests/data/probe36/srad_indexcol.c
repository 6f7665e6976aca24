/* a read-only array read at row i, column through an index array (Rodinia srad: J[i * cols + jW[j]]) */
void f(int rows, int cols, const float *J, float *d, const int *jW) {
#pragma scop
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      d[i * cols + j] = J[i * cols + jW[j]] - J[i * cols + j];
#pragma endscop
}
