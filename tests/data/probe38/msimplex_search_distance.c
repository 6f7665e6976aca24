/*@ begin PerfTuning (
  def performance_params { param UF[] = range(1,9); }
  def input_params { param N[] = [100]; }
  def input_vars {
    decl static double x[N] = random;
    decl static double y[N] = 0;
  }
  def search {
    arg algorithm = 'MSimplex';
    arg total_runs = 4;
    arg msimplex_search_distance = 1;
  }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=UF)
  for (i=0; i<=N-1; i++)
    y[i] = y[i] + 2.0 * x[i];
) @*/
/*@ end @*/
/*@ end @*/
