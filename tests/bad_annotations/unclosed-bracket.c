// expect: 5:18 closed
/* A list that is never closed: the error points at its '[', not at the end of the body. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2, 4;
    param TJ[] = [1, 2, 4];
  }
) @*/
/*@ end @*/
