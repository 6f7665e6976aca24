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

/*@ begin PerfTuning (
  def performance_params { param V[] = [1,3]; }
  def input_params { param M[] = [40]; }
  def input_vars { decl static double z[M] = random; }
) @*/
int j;
/*@ begin Loop(
  transform Unroll(ufactor=V)
  for (j=0; j<=M-1; j++)
    z[j] = z[j] * 0.5;
) @*/
for (j=0; j<=M-1; j++)
  z[j] = z[j] * 0.5;
/*@ end @*/
/*@ end @*/
