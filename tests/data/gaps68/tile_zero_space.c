/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params {
    param TI[] = [0, 8];
  }
  def input_params { param N[] = [50]; }
  def input_vars { decl static double A[N]; }
  def search { arg algorithm = 'Randomsearch'; }
) @*/
int i;
/*@ begin CHiLL ( tile(0,"i",TI,"ii") ) @*/
for (i = 0; i < N; i++)
  A[i] = 2.0 * A[i];
/*@ end @*/
/*@ end @*/
