int n;
double a;
double x[N];
void init_input_vars() {
  a = 1.5;
  n = N;
}
