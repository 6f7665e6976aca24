// expect: 4:35 OPT
/* The build command substitutes a param that does not exist. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc @OPT@ -fopenmp'; }
  def performance_params { param CFLAGS[] = ['-O1', '-O2']; }
) @*/
/*@ end @*/
