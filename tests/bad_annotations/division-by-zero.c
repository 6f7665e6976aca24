// expect: 6:19 division
/* A let whose value cannot be computed. */
/*@ begin PerfTuning (
  let STEP = 0;
  def performance_params {
    param TI[] = [64 // STEP, 2];
  }
) @*/
/*@ end @*/
