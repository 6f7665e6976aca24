// expect: 5:27 ';'
/* A statement without its terminating ';'. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2, 4]
    param TJ[] = [1, 2, 4];
  }
) @*/
/*@ end @*/
