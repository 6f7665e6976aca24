from chill import *
source('split_parts.c')
procedure('f')
loop(0)
original()
split(0, 1, 'L1 < 16')
unroll(1, 1, 4)
