// expect: 6:3 closed
/* A def section without its closing brace. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2];
  def search { arg algorithm = 'Exhaustive'; }
) @*/
/*@ end @*/
