/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param TC[] = [32, 64]; }
  def input_params { param N[] = [1000]; }
  def input_vars {
    decl int n = N;
    decl static double x[N] = random;
    decl static double y[N] = random;
  }
) @*/
/*@ begin Loop(
  transform CUDA(threadCount=TC)
  for (i=0; i<=n-1; i++)
    y[i] = y[i] + 2.0*x[i];
) @*/
/*@ end @*/
/*@ end @*/
