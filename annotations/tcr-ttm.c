/* TCR style (Rivera's tensor-contraction representation, as consumed by Orio's CHiLL module):
 *   C[a][b][c] += A[a][d][c] * B[d][b]      (d contracted)
 * The GPU mapping is searched through string-valued loop params: TX/TY name the thread loops,
 * BX/BY the block loops, '1' an unused slot.  As in TCR's decision algorithm, thread x takes an
 * output index, and the L_* constraints make every output loop used exactly once.
 * registers() keeps C[a][b][c] in a register across the contraction loop, unroll() unrolls it.
 * On the C backend the cuda step runs as a C emulation of the grid. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TX[] = ['c', 'b', 'a'];
    param TY[] = ['c', 'b', 'a', '1'];
    param BX[] = ['c', 'b', 'a', '1'];
    param BY[] = ['c', 'b', 'a', '1'];
    param UF[] = [1, 2, 4];
    constraint L_a = (TX == 'a') + (TY == 'a') + (BX == 'a') + (BY == 'a') == 1;
    constraint L_b = (TX == 'b') + (TY == 'b') + (BX == 'b') + (BY == 'b') == 1;
    constraint L_c = (TX == 'c') + (TY == 'c') + (BX == 'c') + (BY == 'c') == 1;
  }
  def input_params { param NA[] = [16]; param NB[] = [16]; param NC[] = [16]; param ND[] = [16]; }
  def input_vars {
    decl static double C[NA][NB][NC] = random;
    decl static double A[NA][ND][NC] = random;
    decl static double B[ND][NB] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 4; }
) @*/
int a, b, c, d;
/*@ begin CHiLL (
  cuda(0,block={BX,BY},thread={TX,TY})
  registers(0,"d")
  unroll(0,"d",UF)
) @*/
for (a = 0; a < NA; a++)
  for (b = 0; b < NB; b++)
    for (c = 0; c < NC; c++)
      for (d = 0; d < ND; d++)
        C[a][b][c] = C[a][b][c] + A[a][d][c] * B[d][b];
/*@ end @*/
/*@ end @*/
