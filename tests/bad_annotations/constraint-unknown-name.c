// expect: 7:31 TK
/* The constraint names a param that was never declared. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 8, 16];
    param TJ[] = [1, 8, 16];
    constraint c1 = TI * TJ * TK <= 256;
  }
) @*/
/*@ end @*/
