// expect: 5:23 limit
/* A dimension so large it would exhaust memory: refused before it is built. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = list(range(10 ** 12));
  }
) @*/
/*@ end @*/
