// expect: 8:17 type
/* A misspelt C type in an input declaration. */
/*@ begin PerfTuning (
  def performance_params { param TI[] = [1, 2]; }
  def input_params { param N[] = [64]; }
  def input_vars {
    decl static double A[N] = random;
    decl static dubble B[N] = random;
  }
) @*/
/*@ end @*/
