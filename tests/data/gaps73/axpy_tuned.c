/*@ begin PerfTuning (
  def performance_params { param UF[] = [1, 2]; }
  def input_params { param N[] = [37]; }
  def input_vars { decl static double x[N] = random; decl static double y[N] = random; }
  def search { arg total_runs = 2; }
) @*/
int i;
/*@ begin CHiLL ( unroll(0,"i",UF) ) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] * 0.5 + x[i];
/*@ end @*/
/*@ end @*/
