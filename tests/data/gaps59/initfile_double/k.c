/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param N[] = [40]; }
  def input_vars { arg decl_file = 'decl.h'; arg init_file = 'init.c'; }
) @*/
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0;i<=n-1;i++)
    x[i]=a*x[i];
) @*/
/*@ end @*/
/*@ end @*/
