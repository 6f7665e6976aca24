/* TCCG #5 abcd-ebad-ce (Springer & Bientinesi), row-major form from data/tccg.yaml:
 *   C[d,c,b,a] += A[d,a,b,e] * B[e,c]        (e contracted, innermost)
 * Tile the two innermost output loops, keep C[d][c][b][a] in a register across e, unroll e.
 * Extents are the FP64 suite's divided by 4/9 to keep CI fast. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TB[] = [1, 4, 8, 16];
    param TA[] = [4, 8, 16];
    param UF[] = [1, 2, 4, 8];
    constraint tile_cells = TA * TB <= 128;
    constraint unroll_divides = NE % UF == 0;
  }
  def input_params {
    param NA[] = [16]; param NB[] = [16]; param NC[] = [8]; param ND[] = [16]; param NE[] = [16];
  }
  def input_vars {
    decl static double C[ND][NC][NB][NA] = random;
    decl static double A[ND][NA][NB][NE] = random;
    decl static double B[NE][NC] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 5; }
) @*/
int a, b, c, d, e;
/*@ begin CHiLL (
  tile(0,"b",TB,"bb")
  tile(0,"a",TA,"aa")
  permute(0,("d","c","bb","aa","b","a","e"))
  registers(0,"e")
  unroll(0,"e",UF)
) @*/
for (d = 0; d < ND; d++)
  for (c = 0; c < NC; c++)
    for (b = 0; b < NB; b++)
      for (a = 0; a < NA; a++)
        for (e = 0; e < NE; e++)
          C[d][c][b][a] = C[d][c][b][a] + A[d][a][b][e] * B[e][c];
/*@ end @*/
/*@ end @*/
