/*@ begin PerfTuning (
  def performance_params { param T1_I[] = [1,16]; param U_J[] = [1,2]; }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N = 40; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random; }
) @*/
int i, j, ii;
/*@ begin Loop(
  transform Composite(
    tile = [('i',T1_I,'ii')],
    unrolljam = (['j'],[U_K])
  )
  for (i=0; i<=N-1; i++)
    for (j=0; j<=N-1; j++)
      B[i][j] = B[i][j] + A[j][i];
) @*/
/*@ end @*/
/*@ end @*/
