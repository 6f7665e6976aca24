/*@ begin PerfTuning (
  def performance_params { param U[] = [1,2,4]; }
  def input_params { param N[] = [50]; }
  def input_vars { decl static double x[N] = random; decl static double y[N] = 0; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0; i<=N-1; i++)
    y[i] = y[i] + 2.0*x[i];
) @*/
for (i=0; i<=N-1; i++)
  y[i] = y[i] + 2.0*x[i];
/*@ end @*/
/*@ end @*/

