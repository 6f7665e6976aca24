#include <math.h>
#define ceild(n,d)  (((n)<0) ? -((-(n))/(d)) : ((n)+(d)-1)/(d))
#define floord(n,d) (((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))
#define max(x,y)    ((x) > (y)? (x) : (y))
#define min(x,y)    ((x) < (y)? (x) : (y))

void kernel_jacobi_1d(int T, int N, double A[N], double B[N])
{
  int t1, t2, t3, t4;
  int lb, ub, lbp, ubp, lb2, ub2;
  register int lbv, ubv;
#pragma scop
/* Start of CLooG code */
if ((N >= 4) && (T >= 1)) {
  for (t1=-1;t1<=floord(4*T-2,8);t1++) {
    lbp=max(0,t1-floord(2*T-2,8));
    ubp=min(floord(2*T+N-3,8),t1+ceild(N-2,8));
#pragma omp parallel for private(lbv,ubv,t3,t4)
    for (t2=lbp;t2<=ubp;t2++) {
      for (t3=max(0,ceild(8*t1-2,4));t3<=min(T-1,floord(8*t1+14,4));t3++) {
        lbv=max(max(1,8*t2-2*t3),2*t3-8*(t1-t2)-7);
        ubv=min(min(N-2,8*t2+7-2*t3),2*t3-8*(t1-t2));
        for (t4=lbv;t4<=ubv;t4++) {
          B[t4]=0.33333*(A[t4-1]+A[t4]+A[t4+1]);;
        }
        lbv=max(max(1,8*t2-2*t3-1),2*t3-8*(t1-t2)-6);
        ubv=min(min(N-2,8*t2+6-2*t3),2*t3+1-8*(t1-t2));
        for (t4=lbv;t4<=ubv;t4++) {
          A[t4]=B[t4];;
        }
      }
    }
  }
}
/* End of CLooG code */
#pragma endscop
}
