#define N 64
double A[N][N], B[N][N], C[N][N];
void f(void) {
  int i, j, k;
/*@ begin CHiLL (
  TJ = 256
  tile(0,"j",TJ,"jj")
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
/*@ end @*/
}
