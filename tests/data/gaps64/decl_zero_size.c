/*@ begin PerfTuning (
  def performance_params { param U[] = [1,2]; }
  def input_params { param N = 40; }
  def input_vars {
    decl int lo = 0;
    decl int hi = N;
    decl dynamic double x[N] = random;
    decl dynamic double f[N] = 0;
  }
) @*/
int i;
/*@ begin Loop (
transform Unroll(ufactor=U)
for (i = lo; i <= hi-2; i++)
  f[i] = x[i] + x[i+1];
) @*/
/*@ end @*/
/*@ end @*/
