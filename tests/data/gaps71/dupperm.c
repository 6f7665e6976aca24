/*@ begin PerfTuning (
  def performance_params { param T[] = range(1,41); param U[] = range(1,21); }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 500; }
  def input_params { param N = 40; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random; }
) @*/
int i, j, ii;
/*@ begin Loop(
  transform Composite(
    tile = [('i',T,'ii')],
    permut = [('j','j','i')],
    unrolljam = (['j'],[U])
  )
  for (i=0; i<=N-1; i++)
    for (j=0; j<=N-1; j++)
      B[i][j] = B[i][j] + A[j][i];
) @*/
/*@ end @*/
/*@ end @*/
