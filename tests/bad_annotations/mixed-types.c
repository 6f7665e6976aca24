// expect: 5:18 mixes
/* One param mixing integers and strings. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2, 'four'];
  }
) @*/
/*@ end @*/
