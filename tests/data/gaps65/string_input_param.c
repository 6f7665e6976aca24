void scal(double *x, double *y) {
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param UF[] = [1, 2, 4]; }
  def input_params {
    param N[] = [1000];
    param datatype = 'MPI_BYTE';
  }
  def input_vars {
    decl static double x[N] = random;
    decl static double y[N] = random;
  }
) @*/
  int i;
/*@ begin Loop (
  transform Unroll(ufactor=UF)
  for (i=0; i<=N-1; i++)
    y[i] = y[i] + 2.0*x[i];
) @*/
  for (i=0; i<=N-1; i++)
    y[i] = y[i] + 2.0*x[i];
/*@ end @*/
/*@ end @*/
}
