/* --function on NPB add(): the timer calls are guarded by if (timeron) */
typedef enum { false, true } logical;
double u[12][13][13][5], rhs[12][13][13][5];
int grid_points[3];
logical timeron;
void timer_start(int n);
void timer_stop(int n);
#define t_add 11
void add()
{
  int i, j, k, m;

  if (timeron) timer_start(t_add);
  for (k = 1; k <= grid_points[2]-2; k++) {
    for (j = 1; j <= grid_points[1]-2; j++) {
      for (i = 1; i <= grid_points[0]-2; i++) {
        for (m = 0; m < 5; m++) {
          u[k][j][i][m] = u[k][j][i][m] + rhs[k][j][i][m];
        }
      }
    }
  }
  if (timeron) timer_stop(t_add);
}
