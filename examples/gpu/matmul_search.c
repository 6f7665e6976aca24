/* GPU search space for `looptx search --backend cuda` (the issue-5/6 GPU runs): a register-tiled,
 * shared-memory double-precision matrix product C += A * B, N = 1024.
 *   TI x TJ  tile of C per thread block, TK deep slices of A and B staged in __shared__;
 *   RI x RJ  block of C per thread, held in registers across all k slices, fully unrolled;
 *   MAP      a loop-mapping param: which tile loop goes to block x / y and which register-tile
 *            loop goes to thread x / y (the constraint keeps the tile loops on the grid).
 * The constraints encode the device limits (threads per block, 48 KiB of static shared memory)
 * and a register budget, so no point fails for a reason known before compiling. */
/*@ begin PerfTuning (
  def performance_counter { arg repetitions = 10; arg timeout = 60; }
  def performance_params {
    param TI[] = [64, 128];
    param TJ[] = [64, 128];
    param TK[] = [8, 16, 32];
    param RI[] = [1, 2, 4, 8];
    param RJ[] = [1, 2, 4, 8];
    param MAP[] = mapping(loops=['jj', 'ii', 'jt', 'it'], block=2, thread=2, cover=True);
    constraint tiles_on_blocks = MAP[0] in ('ii', 'jj') and MAP[1] in ('ii', 'jj');
    constraint threads = 64 <= (TI // RI) * (TJ // RJ) <= 1024;
    constraint shared = (TI + TJ) * TK * 8 <= 49152;
    constraint registers = 4 <= RI * RJ <= 32;
  }
  def input_params { param N[] = [1024]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double C[N][N] = random;
  }
  def search { arg algorithm = 'surf+'; arg total_runs = 60; arg seed = 0; }
) @*/
int i, j, k;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  tile(0,"k",TK,"kk")
  tile(0,"i",RI,"it")
  tile(0,"j",RJ,"jt")
  permute(0,("ii","jj","kk","it","jt","k","i","j"))
  cuda(0,block={MAP[0],MAP[1]},thread={MAP[2],MAP[3]})
  copy_to_shared(0,"kk","A")
  copy_to_shared(0,"kk","B")
  registers(0,"kk","C")
  unroll(0,"i",0)
  unroll(0,"j",0)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    for (k = 0; k < N; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
