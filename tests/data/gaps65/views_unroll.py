from chill import *
source('views.c')
procedure('smooth')
loop(0)
unroll(0,1,2)
