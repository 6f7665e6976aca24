/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -DKV=@U@'; }
  def performance_params { param U[] = [1,2,4]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double a[N] = random; decl static double b[N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0; i<=N-KV; i++)
    a[i] = KV*a[i] + b[i];
) @*/
/*@ end @*/
/*@ end @*/
