long   n, loop;
double x[1001], y[1001], z[1001];

void kernel5( void )
{
    long   i, l;
#pragma scop
    for ( l=1 ; l<=loop ; l++ ) {
        for ( i=1 ; i<n ; i++ ) {
            x[i] = z[i]*( y[i] - x[i-1] );
        }
    }
#pragma endscop
}
