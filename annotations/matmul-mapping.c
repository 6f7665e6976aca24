/* Matrix multiply mapped to a CUDA grid through one loop-mapping param (a looptx extension):
 * mapping() enumerates every assignment of the loops i, j to the slots (BX, BY, TX, TY), each
 * loop exactly once (cover=True), thread x never empty, so no exclusivity constraints are
 * needed (compare tcr-ttm.c).  A value is a tuple of loop names in slot order, e.g.
 * ('j', '1', 'i', '1') = blocks over j, threads over i.  N = 32 keeps the two-loop thread
 * blocks within 1024 threads (a larger N makes those points fail the device-limit check). */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param MAP[] = mapping(loops=['i', 'j'], block=2, thread=2, cover=True);
    param UF[] = [1, 2, 4, 8];
  }
  def input_params { param N[] = [32]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double C[N][N] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 8; }
) @*/
int i, j, k;
/*@ begin CHiLL (
  cuda(0,block={MAP[0],MAP[1]},thread={MAP[2],MAP[3]})
  registers(0,"k")
  unroll(0,"k",UF)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    for (k = 0; k < N; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
