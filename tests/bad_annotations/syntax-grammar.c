// expect: 5:11 expected
/* A param without a name. */
/*@ begin PerfTuning (
  def performance_params {
    param = [1, 2, 4];
  }
) @*/
/*@ end @*/
