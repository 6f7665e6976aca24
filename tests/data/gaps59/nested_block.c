/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param U[] = [1,2,4]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double a[N] = random; decl static double b[N] = random; decl static double y[N] = random; }
) @*/
{
  {
    int i;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0; i<=N-1; i++)
    a[i] = 2.0*a[i] + b[i];
) @*/
/*@ end @*/
  }
}
/*@ end @*/
