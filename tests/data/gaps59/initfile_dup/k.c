/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc -O3';
  }
  def performance_counter
  {
    arg repetitions = 3;
  }
  def performance_params
  {
    param U[] = [1,2];
  }
  def search
  {
    arg algorithm = 'Exhaustive';
  }
  def input_params
  {
    param N[] = [100];
  }
  def input_vars
  {
    arg decl_file = 'decl.h';
    arg init_file = 'init.c';
  }
) @*/

int i;

/*@ begin Loop(
transform Unroll(ufactor=U)
for (i=0;i<=n-1;i++)
  x[i]=2*x[i];
) @*/
for (i=0;i<=n-1;i++)
  x[i]=2*x[i];
/*@ end @*/
/*@ end @*/
