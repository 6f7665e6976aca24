/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc -O2 -fopenmp';
  }
  def performance_counter
  {
    arg repetitions = 1;
  }
  def performance_params
  {
    param T_I[] = [1,8,16];
    param U_I[] = [1,2,4];
    param U_J[] = [1,4];
    param OMP[] = [False,True];
  }
  def search
  {
    arg algorithm = 'Randomsearch';
    arg total_runs = 6;
  }
  def input_params
  {
    param N = 37;
  }
  def input_vars
  {
    decl static float a[N+1][N+1] = random;
    decl static float x[N+1] = random;
    decl static float b[N+1] = random;
    decl static float r[N+1] = 0;
  }
) @*/

int i, j;
int ii;
double sdp;

/*@ begin Loop(
  transform Composite(
    tile = [('i',T_I,'ii')],
    unrolljam = (['i','j'],[U_I,U_J]),
    openmp = (OMP, 'omp parallel for private(i,j,sdp)')
  )
  for (i=1;i<=N;i++) {
    sdp = -b[i];
    for (j=1;j<=N;j++) sdp += a[i][j]*x[j];
    r[i]=sdp;
  }
) @*/
for (i=1;i<=N;i++) {
  sdp = -b[i];
  for (j=1;j<=N;j++) sdp += a[i][j]*x[j];
  r[i]=sdp;
}
/*@ end @*/
/*@ end @*/
