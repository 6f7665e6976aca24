#include <stdint.h>
#ifndef NS
#define NS 16
#endif
typedef uint8_t state_t;   /* MachSuite viterbi: states are bytes */

/* The cheapest path into each state: the first predecessor by the temporary `prev = 0`, the
   others by the loop that counts with the same variable. */
void best_in(double cost[NS][NS], double best[NS])
{
  state_t prev, curr;
  double m;
#pragma scop
  for (curr = 0; curr < NS; curr++) {
    prev = 0;
    m = cost[curr][prev];
    for (prev = 1; prev < NS; prev++)
      m = m < cost[curr][prev] ? m : cost[curr][prev];
    best[curr] = m;
  }
#pragma endscop
}
