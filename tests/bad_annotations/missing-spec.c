// expect: 4:15 spec
/* import spec names a file that does not exist. */
/*@ begin PerfTuning (
  import spec no_such_spec;
) @*/
/*@ end @*/
