/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    @PARAMS@
  }
  def input_params { param N[] = [20]; }
  def input_vars { decl static double a[N] = random; }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = @RUNS@; }
) @*/
int i;
/*@ begin CHiLL (
  unroll(0,"i",UF)
) @*/
for (i = 0; i < N; i++) a[i] = a[i] * 2.0;
/*@ end @*/
/*@ end @*/
