void PackAligned(double* src, double* dest, const int stride, const int nelms, const int count) {
  register int i, j;
  /*@ begin Loops(transform Pack()
  for(i=0; i<count; i++) {
    for(j=0; j<nelms; j++) {
      dest[i*nelms+j] = src[i*stride+j];
    }
  }
  ) @*/
  /*@ end @*/
}
