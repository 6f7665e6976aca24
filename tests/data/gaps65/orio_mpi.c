void mm(double *m1, double *m2, double *mult, int row, int col) {
  int i,j,k;
  /*@ begin Loop(
  transform MPIOverlap(protocol='eager',msgsize=1000)
  for(i=0;i<row;i++)
    for(j=0;j<col;j++)
      for(k=0;k<row;k++)
        mult[i*row+j] += m1[i*row+k] * m2[k*row+j];
  ) @*/
  /*@ end @*/
}
