void minval(int *xmin, int *xmax, int *ymin, int *ymax, double *a, double *out)
{
  int x_min=*xmin;
  int x_max=*xmax;
  int y_min=*ymin;
  int y_max=*ymax;
  int j,k;
  double m;

  m = 1.0e30;

#pragma omp parallel
 {
#pragma omp for reduction(min:m)
  for (k=y_min;k<=y_max;k++) {
    for (j=x_min;j<=x_max;j++) {
      if(a[(x_max+4)*(k-(y_min-2))+j-(x_min-2)] < m) m=a[(x_max+4)*(k-(y_min-2))+j-(x_min-2)];
    }
  }
 }

  *out=m;
}
