/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -DREAL=float'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double a[N] = random; decl static double b[N] = random; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0; i<=N-1; i++)
    a[i] = (REAL)a[i] * (REAL) b[i];
) @*/
/*@ end @*/
/*@ end @*/
