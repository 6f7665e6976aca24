// expect: 5:19 TILE
/* A param value refers to a let defined only later. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [TILE, 2 * TILE];
  }
  let TILE = 16;
) @*/
/*@ end @*/
