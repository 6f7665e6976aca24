// expect: 7:11 duplicate
/* The same param declared twice. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 8, 16];
    param UF[] = [1, 2];
    param TI[] = [32];
  }
) @*/
/*@ end @*/
