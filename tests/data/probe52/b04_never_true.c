/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc @OPT@ -fopenmp';
    arg libs = '-lm';
  }
  def performance_counter
  {
    arg repetitions = 3;
  }
  def performance_params
  {
    param OPT[] = ['-O2', '-O3'];
    param TI[] = [1, 4, 8, 16];
    param TJ[] = [1, 4, 8, 16];
    param UK[] = range(1, 5);
    param PERM[] = ['ijk', 'ikj'];
    param SCR[] = [False, True];
    constraint tiles = TI * TJ > 100000;
    constraint unroll = (UK == 1) or (TI >= 4);
  }
  def input_params
  {
    param M[] = [24, 37];
    param N[] = [20];
    param K[] = [17];
  }
  def input_vars
  {
    decl static double A[M][K] = random;
    decl static double B[K][N] = random;
    decl static double C[M][N] = 0;
  }
  def search
  {
    arg algorithm = 'Simplex';
    arg total_runs = 6;
    arg simplex_local_distance = 2;
    arg simplex_reflection_coef = 1.0;
    arg simplex_expansion_coef = 2.0;
    arg simplex_contraction_coef = 0.5;
    arg simplex_shrinkage_coef = 0.7;
  }
) @*/
int i, j, k;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  unroll(0,"k",UK)
) @*/
for (i = 0; i <= M - 1; i++)
  for (j = 0; j <= N - 1; j++)
    for (k = 0; k <= K - 1; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
