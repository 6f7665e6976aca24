// expect: 5:24 syntax
/* A Python syntax error inside a value: two commas in a row. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2,, 4];
  }
) @*/
/*@ end @*/
