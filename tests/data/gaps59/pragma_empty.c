void f(int N, double *y, double *x) {
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3 -fopenmp'; }
  def performance_params { param UF[] = [2,4]; param PR[] = ['', 'omp parallel for']; }
  def input_params { param N[] = [100]; }
  def input_vars { decl dynamic double x[N] = random; decl dynamic double y[N] = 0; }
) @*/
  int n = N;
  register int i;
/*@ begin Loop (
  transform Pragma(pragma_str=[PR])
  transform Unroll(ufactor=UF)
  for (i=0; i<=n-1; i++)
    y[i]=y[i]+x[i];
) @*/
  for (i=0; i<=n-1; i++)
    y[i]=y[i]+x[i];
/*@ end @*/
/*@ end @*/
}
