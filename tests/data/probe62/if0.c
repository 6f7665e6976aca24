#define N 64
void mm(float A[N][N], float B[N][N], float C[N][N]) {
  int i, j, k;
#if 0
/*@ begin CHiLL ( tile(0,"i",8,"ii") ) @*/
  for (i = 0; i < N; i++)
    C[i][0] = 0;
/*@ end @*/
#endif
/*@ begin CHiLL (
  tile(0,"i",16,"ii")
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
}
