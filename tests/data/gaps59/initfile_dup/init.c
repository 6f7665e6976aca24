void init_input_vars() {
  a = 1.5;
  n = N;
}
