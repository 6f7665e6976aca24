/* Matrix multiply on the CPU: tile i and j, keep C[i][j] in a register across k, unroll k.
 * Orio fragment style: arrays come from def input_vars, the size from def input_params. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TI[] = [1, 8, 16, 32];
    param TJ[] = [1, 8, 16, 32];
    param UF[] = [1, 2, 4];
    # keep a tile of C small, and unroll only when there is a real j tile
    constraint tile_area = TI * TJ <= 256;
    constraint unroll_tiled = UF == 1 or TJ >= 8;
  }
  def input_params { param N[] = [96]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double C[N][N] = 0;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 1; }
) @*/
int i, j, k;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  permute(0,("ii","jj","i","j","k"))
  registers(0,"k")
  unroll(0,"k",UF)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    for (k = 0; k < N; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
