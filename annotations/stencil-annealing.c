/* A 2-D 4-point smoothing stencil tuned with simulated annealing, whose options are written in
 * the spec (Orio's lexer rejected them; looptx accepts any `arg` name), and with the compiler
 * flags themselves a tuning dimension: @CFLAGS@ in build_command is replaced by the point's
 * CFLAGS value.  time_limit is in seconds. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc @CFLAGS@'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param CFLAGS[] = ['-O1', '-O2'];
    param TI[] = [8, 16, 32];
    param TJ[] = [8, 16, 32];
    param UF[] = [1, 2, 4];
    constraint tile_area = TI * TJ <= 512;
  }
  def input_params { param N[] = [128]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = 0;
  }
  def search {
    arg algorithm = 'Annealing';
    arg total_runs = 10;
    arg time_limit = 120;
    arg seed = 3;
    arg annealing_cooling_factor = 0.9;
    arg annealing_final_temperature_ratio = 0.05;
    arg annealing_trials_limit = 10;
    arg annealing_moves_limit = 5;
  }
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  permute(0,("ii","jj","i","j"))
  unroll(0,"j",UF)
) @*/
for (i = 1; i < N - 1; i++)
  for (j = 1; j < N - 1; j++)
    B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
/*@ end @*/
/*@ end @*/
