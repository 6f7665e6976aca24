/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param U1_I[] = [2]; param U1_J[] = [2]; }
  def input_params { param N[] = [37]; param alpha = 1; }
  def input_vars {
  decl static double A[N][N+20] = random;
  decl static double B[N][N+20] = random;
  }
) @*/
int i, j, k;
/*@ begin Loop(
transform Composite(
    unrolljam = (['i','j'],[U1_I,U1_J])
)
for (i=0; i<=N-1; i++)
  for (j=0; j<=N-1; j++)
    {
      B[i][j] = alpha*A[i][i]*B[i][j];
      for (k=i+1; k<=N-1; k++)
	B[i][j] = B[i][j] + alpha*A[i][k]*B[k][j];
	}
) @*/
/*@ end @*/
/*@ end @*/
