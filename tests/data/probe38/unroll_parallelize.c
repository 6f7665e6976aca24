/*@ begin PerfTuning (
  def performance_params { param UF[] = [2]; param PA[] = [True, False]; }
  def input_params { param N[] = [100]; }
  def input_vars {
    decl static double x[N] = random;
    decl static double y[N] = 0;
  }
  def build { arg build_command = 'gcc -O3 -fopenmp'; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=UF, parallelize=PA)
  for (i=0; i<=N-1; i++)
    y[i] = y[i] + 2.0 * x[i];
) @*/
/*@ end @*/
/*@ end @*/
