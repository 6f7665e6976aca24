/* minimal: a register copy at a loop that lies between the thread loops (CUDA-CHiLL mpeg4's copy_to_registers("jjj","result")) */
void conv(int n, float r[64][64], float p[80][80], float w[4]) {
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < 4; k++)
        r[i][j] += p[i][j + k] * w[k];
}
