void mv(int n, double y[n], double A[n][n], double x[n])
{
  int i, j;
/*@ begin PerfTuning (
  def performance_params {
    param P[] = ['i','j'];
    param U[] = [1,2];
    constraint c1 = 'i' == P or U == 2;
  }
  def input_params { param n[] = [64]; }
  def input_vars { decl dynamic double y[n] = 0; decl dynamic double A[n*n] = random; decl dynamic double x[n] = random; }
) @*/
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i = 0; i <= n-1; i++)
    for (j = 0; j <= n-1; j++)
      y[i] = y[i] + A[i][j] * x[j];
) @*/
  for (i = 0; i <= n-1; i++)
    for (j = 0; j <= n-1; j++)
      y[i] = y[i] + A[i][j] * x[j];
/*@ end @*/
/*@ end @*/
}
