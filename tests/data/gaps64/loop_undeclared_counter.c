double a[100];
void f(void) {
/*@ begin Loop (
  transform Unroll(ufactor=4)
  for (i = 0; i <= 99; i++)
    a[i] = a[i] * 2.0;
) @*/
/*@ end @*/
}
