// expect: 6:28 attribute
/* Attribute access reaches Python internals: refused. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2];
    constraint escape = ().__class__.__bases__ == 0;
  }
) @*/
/*@ end @*/
