#define N 10
double a[N];
void f(void) {
  int i;
#pragma scop
/*@ begin CHiLL ( unroll(0,"i",2) ) @*/
  for (i = 0; i < N; i++)
    a[i] = 1.0;
#pragma endscop
/*@ end @*/
}
