// expect: 6:26 open
/* A value that tries to read a file. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = [1, 2];
    param NAMES[] = list(open('/etc/passwd'));
  }
) @*/
/*@ end @*/
