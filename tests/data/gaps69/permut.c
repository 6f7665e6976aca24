/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param T1_I[] = [1,8,16];
    param T1_J[] = [1,8,16];
    param U_J[] = [1,2];
  }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N = 30; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random; }
) @*/
int i, j, ii, jj;
/*@ begin Loop(
  transform Composite(
    tile = [('i',T1_I,'ii'),('j',T1_J,'jj')],
    permut = [('ii','jj','i','j')],
    unrolljam = (['j'],[U_J])
  )
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= N-1; j++)
      B[i][j] = B[i][j] + A[j][i];
) @*/
/*@ end @*/
/*@ end @*/
