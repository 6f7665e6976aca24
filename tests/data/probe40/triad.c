/*@ begin PerfTuning (
  def build { arg build_command = 'nvcc -O3'; }
  def performance_params {
    param TC[] = [32, 64];
    param SC[] = [1, 2, 3];
    param CB[] = [True, False];
  }
  def input_params { param N[] = [1000]; }
  def input_vars {
    decl static float A[N] = random;
    decl static float B[N] = random;
    decl static float C[N] = 0;
    decl float s = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; arg seed = 1; }
) @*/
int n = N;
int gid;
/*@ begin Loop(transform CUDA(threadCount=TC, streamCount=SC, cacheBlocks=CB)
  for (gid = 0; gid <= n-1; gid++)
    C[gid] = A[gid] + s*B[gid];
) @*/
/*@ end @*/
/*@ end @*/
