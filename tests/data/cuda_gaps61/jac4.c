void jac(int T, int n, int m, double A[n][m], double B[n][m])
{
  int t, i, j;
/*@ begin CHiLL (
  tile(0,"i",4,"ii")
  tile(0,"j",8,"jj")
  permute(0,("t","ii","jj","i","j"))
  cuda(0,block={"jj","ii"},thread={"j","i"})
  copy_to_shared(0,"jj","A")
  tile(1,"i",3,"ii")
  tile(1,"j",16,"jj")
  permute(1,("t","ii","jj","i","j"))
  cuda(1,block={"jj","ii"},thread={"j","i"})
  copy_to_shared(1,"jj","B",1)
) @*/
  for (t = 0; t < T; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1]);
  }
/*@ end @*/
}
