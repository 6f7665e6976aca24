/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params {
    param PERM[] = [
     ['i','j'],
     ['j','i'],
    ];
  }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double A[N][N] = random; decl static double x[N] = random; decl static double y[N] = 0; }
) @*/
int i, j;
/*@ begin Loop (
  transform Composite(permut = [PERM])
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= N-1; j++)
      y[i] = y[i] + A[i][j]*x[j];
) @*/
/*@ end @*/
/*@ end @*/
