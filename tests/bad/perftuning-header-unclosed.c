// expect: 2:1 not closed
/*@ begin PerfTuning (
  def performance_params { param TI[] = [4, 8]; }
)
void f(int n, double A[n][n], double B[n][n])
{
  int i, j;
  /*@ begin CHiLL ( tile(0,"i",TI,"ii") ) @*/
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[i][j] + A[j][i];
  /*@ end @*/
}
/*@ end @*/
