/* NPB's timer idiom between two nests of one region (BT compute_rhs, SP, LU ...) */
typedef enum { false, true } logical;
#define N 12
double a[N], b[N];
logical timeron;
void timer_stop(int n);
void f(int n)
{
  int i;
  for (i = 0; i < n; i++)
    a[i] = a[i] * 2.0;
  if (timeron) timer_stop(4);
  for (i = 0; i < n; i++)
    b[i] = b[i] + a[i];
}
