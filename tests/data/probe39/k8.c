long   n, loop;
double du1[101];
double u1[2][101][5];

void kernel8( void )
{
    long   kx, ky, l, nl1, nl2;
    for ( l=1 ; l<=loop ; l++ ) {
        nl1 = 0;
        nl2 = 1;
#pragma scop
        for ( kx=1 ; kx<3 ; kx++ ){
            for ( ky=1 ; ky<n ; ky++ ) {
               du1[ky] = u1[nl1][ky+1][kx] - u1[nl1][ky-1][kx];
               u1[nl2][ky][kx]= u1[nl1][ky][kx] + du1[ky];
            }
        }
#pragma endscop
    }
}
