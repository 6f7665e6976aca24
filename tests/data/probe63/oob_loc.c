/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param M = 8; param N = 8; }
  def input_vars {
    decl dynamic double A[M][N] = random;
    decl dynamic double x[N] = random;
    decl dynamic double t2[M] = 0;
    decl dynamic double t10[M] = 0;
  }
) @*/
int i, j;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= M-1; j++)
      t2[j] = t2[j] + A[i][j]*x[i];
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= M; j++)
      t10[j] = t10[j] + A[i][j]*x[i];
) @*/
/*@ end @*/
/*@ end @*/
