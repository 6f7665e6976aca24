/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -fopenmp'; }
  def performance_params {
    param T[] = [1, 8];
    param PAR[] = [False, True];
  }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N = 50; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double x[N] = random;
    decl static double y[N] = 0;
  }
) @*/
int i, j;
double t;
/*@ begin Loop(
  transform Composite(
    tile = [('j', T, 'jj')],
    openmp = (PAR, 'omp parallel for private(i,j,jj,t)')
  )
  for (i = 0; i <= N-1; i++) {
    t = 0.0;
    for (j = 0; j <= N-1; j++)
      t = t + A[i][j] * x[j];
    y[i] = t;
  }
) @*/
for (i = 0; i <= N-1; i++) {
  t = 0.0;
  for (j = 0; j <= N-1; j++)
    t = t + A[i][j] * x[j];
  y[i] = t;
}
/*@ end @*/
/*@ end @*/
