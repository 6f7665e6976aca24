/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param UF[] = [1, 4]; }
  def input_params { param n[] = [1000]; }
  def input_vars {
    decl dynamic double x[n] = random;
    decl dynamic double y[n] = 0;
    decl double a = random;
  }
) @*/
int i;
if (a != 0.0) {
  /*@ begin Loop (
    transform Unroll(ufactor=UF)
    for (i = 0; i <= n-1; i++)
      y[i] = y[i] + a*x[i];
  ) @*/
  for (i = 0; i <= n-1; i++)
    y[i] = y[i] + a*x[i];
  /*@ end @*/
}
/*@ end @*/
