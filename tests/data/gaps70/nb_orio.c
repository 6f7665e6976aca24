void nb(int n, int T, int m, double B[n][T + 1][m], double C[n][T][m])
{
  /*@ begin CHiLL ( cuda(0, block={"i"}, thread={"j"}) registers(1, "j", "B") ) @*/
  for (int i = 0; i < n; i++)
    for (int k = 0; k < T; k++) {
      for (int j = 0; j < m; j++)
        B[i][k + 1][j] = B[i][k][j] * 0.5 + 1.0;
      for (int j = 1; j < m - 1; j++)
        C[i][k][j] = B[i][k + 1][j - 1] + B[i][k + 1][j + 1];
    }
  /*@ end @*/
}
