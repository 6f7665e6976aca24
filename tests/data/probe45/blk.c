typedef struct { int xstart, xend; } BlockInfo;
void scale(BlockInfo blk, double *a)
{
   int i;
   for ( i=blk.xstart; i<=blk.xend; i++ )
      a[i] = 2.0 * a[i];
}
