/* mvt (PolyBench), tuned separately for two problem sizes: def input_params lists N = 64 and
 * N = 96, and each size is a separate search (Orio semantics).  Both statements keep their
 * reduction order: S0 is tiled along j, S1 is interchanged so that A is read row by row. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TJ[] = [8, 16, 32];
    param U0[] = [1, 2, 4];
    param U1[] = [1, 2, 4];
    constraint work = U0 * U1 <= 8;
  }
  def input_params { param N[] = [64, 96]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double x1[N] = random;
    decl static double x2[N] = random;
    decl static double ya[N] = random;
    decl static double yb[N] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; arg seed = 6; }
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"j",TJ,"jj")
  permute(0,("jj","i","j"))
  unroll(0,"j",U0)
  permute(1,("j","i"))
  unroll(1,"i",U1)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x1[i] = x1[i] + A[i][j] * ya[j];
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x2[i] = x2[i] + A[j][i] * yb[j];
/*@ end @*/
/*@ end @*/
