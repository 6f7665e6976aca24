/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param UF[] = [1,2]; }
  def input_params { param N[] = [50]; }
  def input_vars { arg decl_file = 'decl.h'; arg init_file = 'init.c'; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=UF)
  for (i=0; i<=n-1; i++)
    a[i] = 2.0*a[i];
) @*/
/*@ end @*/
/*@ end @*/
