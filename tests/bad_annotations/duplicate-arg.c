// expect: 7:9 duplicate
/* The same search option given twice. */
/*@ begin PerfTuning (
  def search {
    arg algorithm = 'Randomsearch';
    arg total_runs = 10;
    arg total_runs = 20;
  }
) @*/
/*@ end @*/
