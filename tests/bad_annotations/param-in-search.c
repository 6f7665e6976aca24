// expect: 6:5 allowed
/* param belongs in performance_params, not in search. */
/*@ begin PerfTuning (
  def search {
    arg algorithm = 'Randomsearch';
    param TI[] = [1, 2];
  }
) @*/
/*@ end @*/
