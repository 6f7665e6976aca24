/* Jacobi 2-D (PolyBench) with its time loop.  Only the space loops of each sweep are tiled:
 * inside one time step the points of a sweep are independent, so any tiling is legal, while
 * the time loop carries the ping-pong dependences and stays outermost. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TI[] = [4, 8, 16, 32];
    param TJ[] = [8, 16, 32, 64];
    param UF[] = [1, 2, 4];
    constraint tile_area = TI * TJ <= 1024;
    constraint unroll_in_tile = UF <= TJ;
  }
  def input_params { param T[] = [4]; param N[] = [96]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 2; }
) @*/
int t, i, j;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  permute(0,("ii","jj","i","j"))
  unroll(0,"j",UF)
  tile(1,"i",TI,"ii")
  tile(1,"j",TJ,"jj")
  permute(1,("ii","jj","i","j"))
  unroll(1,"j",UF)
) @*/
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
}
/*@ end @*/
/*@ end @*/
