/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param U1[] = range(1, 17);
    param U2[] = range(1, 17);
    param U3[] = range(1, 17);
    param U4[] = range(1, 17);
    param U5[] = range(1, 17);
    param U6[] = range(1, 17);
    constraint regs = U1 * U2 * U3 * U4 * U5 * U6 <= 32;
  }
  def input_params { param N[] = [20]; }
  def input_vars {
    decl static double a[N] = random;
    decl static double b[N] = random;
    decl static double c[N] = random;
    decl static double d[N] = random;
    decl static double e[N] = random;
    decl static double f[N] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 10; }
) @*/
int i;
/*@ begin CHiLL (
  unroll(0,"i",U1)
  unroll(1,"i",U2)
  unroll(2,"i",U3)
  unroll(3,"i",U4)
  unroll(4,"i",U5)
  unroll(5,"i",U6)
) @*/
for (i = 0; i < N; i++) a[i] = a[i] * 2.0;
for (i = 0; i < N; i++) b[i] = b[i] * 2.0;
for (i = 0; i < N; i++) c[i] = c[i] * 2.0;
for (i = 0; i < N; i++) d[i] = d[i] * 2.0;
for (i = 0; i < N; i++) e[i] = e[i] * 2.0;
for (i = 0; i < N; i++) f[i] = f[i] * 2.0;
/*@ end @*/
/*@ end @*/
