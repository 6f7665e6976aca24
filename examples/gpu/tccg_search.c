/* GPU search space for `looptx search --backend cuda`: TCCG #5 abcd-ebad-ce in double precision,
 *   C[d,c,b,a] += A[d,a,b,e] * B[e,c]          (e contracted; extents 72/72/24/72/72)
 * b is tiled by TB (bb), e by TE (ee); A and B are staged in __shared__ per ee slice and each
 * thread keeps its C values (all c) in registers.  MAP assigns the loops d, bb, a, b to the block
 * and thread slots in every possible way: many assignments cannot work (a thread loop outside a
 * block loop's shared copy, more than 1024 threads), and are rejected before compiling, so this
 * space has a large infeasible part, as real mapping spaces do.  UC = 0 unrolls c completely. */
/*@ begin PerfTuning (
  def performance_counter { arg repetitions = 10; arg timeout = 60; }
  def performance_params {
    param TB[] = [2, 4, 8, 16];
    param TE[] = [4, 8, 12, 24];
    param MAP[] = mapping(loops=['d', 'bb', 'a', 'b'], block=2, thread=2, cover=True);
    param UC[] = [0, 1];
  }
  def input_params { param NA[] = [72]; param NB[] = [72]; param NC[] = [24]; param ND[] = [72]; param NE[] = [72]; }
  def input_vars {
    decl static double C[ND][NC][NB][NA] = random;
    decl static double A[ND][NA][NB][NE] = random;
    decl static double B[NE][NC] = random;
  }
  def search { arg algorithm = 'surf+'; arg total_runs = 60; arg seed = 0; }
) @*/
int a, b, c, d, e;
/*@ begin CHiLL (
  tile(0,"b",TB,"bb")
  tile(0,"e",TE,"ee")
  permute(0,("d","bb","ee","b","a","e","c"))
  cuda(0,block={MAP[0],MAP[1]},thread={MAP[2],MAP[3]})
  copy_to_shared(0,"ee","A")
  copy_to_shared(0,"ee","B")
  registers(0,"ee","C")
  unroll(0,"c",UC)
) @*/
for (d = 0; d < ND; d++)
  for (c = 0; c < NC; c++)
    for (b = 0; b < NB; b++)
      for (a = 0; a < NA; a++)
        for (e = 0; e < NE; e++)
          C[d][c][b][a] = C[d][c][b][a] + A[d][a][b][e] * B[e][c];
/*@ end @*/
/*@ end @*/
