/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1 -fopenmp'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param PR[] = ['', 'omp parallel for'];
    param U[] = [1, 2];
  }
  def input_params { param N[] = [64]; }
  def input_vars {
    decl static double x[N] = random;
    decl static double y[N] = random;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ Loops(transform Pragma(pragma_str=PR)
  transform Unroll(ufactor=U, parallelize=False)
  for (i = 0; i <= N-1; i++)
    y[i] = y[i] + 2.0 * x[i];
) @*/
for (i = 0; i <= N-1; i++)
  y[i] = y[i] + 2.0 * x[i];
/*@ @*/
/*@ end @*/
