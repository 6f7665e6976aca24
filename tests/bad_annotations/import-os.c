// expect: 5:18 __import__
/* A value that tries to load a module. */
/*@ begin PerfTuning (
  def performance_params {
    param TI[] = __import__('os').listdir('.');
  }
) @*/
/*@ end @*/
