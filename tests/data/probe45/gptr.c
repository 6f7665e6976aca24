typedef struct { int n; double *a; } G;
void scale(G *g)
{
   int i;
   for ( i=0; i<g->n; i++ )
      g->a[i] = 2.0 * g->a[i];
}
