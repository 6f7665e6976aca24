#include <sys/time.h>
#define START_TIMER(S) struct timeval start_ ## S , end_ ## S ; gettimeofday(&start_ ## S , NULL);
#define STOP_TIMER(S,T) gettimeofday(&end_ ## S, NULL); T->S += (double)(end_ ## S .tv_sec-start_ ## S.tv_sec)+(double)(end_ ## S .tv_usec-start_ ## S .tv_usec)/1000000;
struct profiler { double section0; };
int Forward(float (*restrict u)[64], const int time_M, const int time_m, struct profiler * timers)
{
  for (int time = time_m; time <= time_M; time += 1)
  {
    START_TIMER(section0)
    for (int x = 1; x < 63; x += 1)
      u[(time + 1)%(2)][x] = 0.5F*(u[(time)%(2)][x - 1] + u[(time)%(2)][x + 1]);
    STOP_TIMER(section0,timers)
  }
  return 0;
}
