// expect: 4:1 closed
/* The PerfTuning body is never closed with ") @*/". */
int x;
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2];
  }
