// expect: 6:18 values
/* A dimension with nothing to search. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2, 4];
    param UF[] = [];
  }
) @*/
/*@ end @*/
