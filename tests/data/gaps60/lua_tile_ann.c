#define N 64
double A[N][N], B[N][N], C[N][N];
void mmf(int n) {
  int i, j, k;
/*@ begin CHiLL (
  tile(0,3,2)
  datacopy(0,4,"C",false,1)
) @*/
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
/*@ end @*/
}
