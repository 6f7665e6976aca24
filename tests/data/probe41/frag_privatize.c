/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param TJ[] = [8, 16]; }
  def input_params { param N[] = [64]; }
  def input_vars {
    decl dynamic double a[N] = random;
    decl dynamic double b[N] = 0;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
double t;
/*@ begin CHiLL (
  privatize("t","i")
  tile(0,"i",TJ,"ii")
) @*/
for (i = 0; i < N; i++) {
  t = 1.0 / a[i];
  b[i] = t * t;
}
/*@ end @*/
/*@ end @*/
