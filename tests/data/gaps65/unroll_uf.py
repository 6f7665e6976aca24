from chill import *
source('short_counter.c')
procedure('f')
loop(0)
unroll(0,1,UF)
