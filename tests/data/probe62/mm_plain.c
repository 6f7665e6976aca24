/* CHiLL's mm example (examples/chill/mm.c style), annotated */
#define N 64
void mm(float A[N][N], float B[N][N], float C[N][N]) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
}
