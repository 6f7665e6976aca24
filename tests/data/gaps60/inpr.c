/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc -O3 -fopenmp';
  }
  def performance_params
  {
    param U[] = [1,2,4];
    param PAR[] = [False,True];
  }
  def search
  {
    arg algorithm = 'Exhaustive';
  }
  def input_params
  {
    param N = 37;
  }
  def input_vars
  {
    decl static double a[N] = random;
    decl static double b[N] = random;
  }
) @*/

int i;

/*@ begin Loop(
  transform Unroll(ufactor=U, parallelize=PAR)
#pragma omp parallel for
  for (i = 1; i <= N-1; i++)
    a[i] = 2.0*a[i] + b[i];
) @*/
/*@ end @*/
/*@ end @*/
