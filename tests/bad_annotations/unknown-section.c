// expect: 5:7 section
/* A misspelt section name. */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def perf_params {
    param TI[] = [1, 2, 4];
  }
) @*/
/*@ end @*/
