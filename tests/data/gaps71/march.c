/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3 -march=nosuchcpu'; }
  def performance_params { param U[] = [1,2,3,4]; param T[] = [1,8]; }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N = 30; }
  def input_vars { decl static double x[N] = random; decl static double y[N] = random; }
) @*/
int i;
/*@ begin CHiLL ( tile(0,"i",T,"ii") unroll(0,"i",U) ) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] + 2.0*x[i];
/*@ end @*/
/*@ end @*/
